import { ErrorPage } from './ErrorPage';

export default function Error403View() {
  return <ErrorPage kind={403} />;
}
