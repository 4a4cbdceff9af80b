import { ErrorPage } from '@/pages/ErrorPage';

export default function Error404View() {
  return <ErrorPage kind={404} />;
}
