import { useRouteTitle } from '@/i18n';

/** A route's title in the menu, tabs or breadcrumb; one shown as stored is marked as data (`translate="no"`). */
export function RouteTitle({ title, className, testId }: { title: string | undefined; className?: string; testId?: string }) {
  const routeTitle = useRouteTitle();
  const { text, data } = routeTitle(title);
  return (
    <span className={className} translate={data ? 'no' : undefined} data-testid={testId}>
      {text}
    </span>
  );
}
