import { ErrorPage } from './ErrorPage';

export default function Error404View() {
  return <ErrorPage kind={404} />;
}
