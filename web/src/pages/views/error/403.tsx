import { ErrorPage } from '@/pages/ErrorPage';

export default function Error403View() {
  return <ErrorPage kind={403} />;
}
