import { Button } from '@fluentui/react-components';
import { ChevronDownRegular } from '@fluentui/react-icons/svg/chevron-down';
import { ChevronRightRegular } from '@fluentui/react-icons/svg/chevron-right';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettingStyles } from '@/components/forms/ui';

/** The first cell of a tree-table row: indentation, expand/collapse twisty, content. */
export function TreeCell({
  depth,
  hasChildren,
  collapsed,
  onToggle,
  children,
}: {
  depth: number;
  hasChildren: boolean;
  collapsed: boolean;
  onToggle: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const styles = useSettingStyles();
  return (
    <div className={styles.treeCell} style={{ paddingLeft: `${depth * 20}px` }}>
      {hasChildren ? (
        <Button
          className={styles.twisty}
          size="small"
          appearance="subtle"
          aria-expanded={!collapsed}
          aria-label={collapsed ? t('set.common.expand') : t('set.common.collapse')}
          icon={collapsed ? <ChevronRightRegular /> : <ChevronDownRegular />}
          onClick={onToggle}
        />
      ) : (
        <span className={styles.spacer} />
      )}
      {children}
    </div>
  );
}
