import { Badge } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { TableItem } from '../api/demo';

const COLOURS: Partial<Record<string, 'success' | 'warning' | 'danger'>> = { published: 'success', draft: 'warning', deleted: 'danger' };

export function StatusBadge({ status }: { status: TableItem['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge appearance="tint" color={COLOURS[status] ?? 'informative'} style={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
      {t(`dm.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}
