import { Button, Tooltip } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { reloadCurrentView } from '@/layout/menu/useMenuActivate';

/** Re-renders the current view (the header's refresh icon). */
export function RefreshButton() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Tooltip content={t('header.refresh')} relationship="label">
      <Button appearance="subtle" icon={<ArrowClockwiseRegular />} onClick={() => reloadCurrentView(location.pathname + location.search)} data-testid="refresh-view" />
    </Tooltip>
  );
}
