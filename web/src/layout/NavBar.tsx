import { Button, makeStyles, tokens, Tooltip } from '@fluentui/react-components';
import { TextIndentDecreaseRegular } from '@fluentui/react-icons/svg/text-indent-decrease';
import { TextIndentIncreaseRegular } from '@fluentui/react-icons/svg/text-indent-increase';
import { useTranslation } from 'react-i18next';
import { HeaderTools } from '@/components/header/HeaderTools';
import type { AppRoute } from '@/router/types';
import { settingsStore, toggleCollapse } from '@/store/settings';
import { Breadcrumb } from './Breadcrumb';

const useStyles = makeStyles({
  bar: {
    display: 'flex',
    alignItems: 'center',
    columnGap: '8px',
    height: '56px',
    padding: '0 12px 0 8px',
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  left: { display: 'flex', alignItems: 'center', columnGap: '4px', flex: 1, minWidth: 0 },
});

/** Header bar above the content: fold toggle, breadcrumb, and (optionally) the tools. */
export function NavBar({ chain, showFold = true, showTools = true }: { chain: AppRoute[]; showFold?: boolean; showTools?: boolean }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const collapse = settingsStore.use((s) => s.collapse);
  const mobile = settingsStore.use((s) => s.device === 'mobile');
  return (
    <div className={styles.bar} data-testid="nav-bar">
      <div className={styles.left}>
        {showFold && (
          <Tooltip content={t(collapse ? 'header.unfold' : 'header.fold')} relationship="label">
            <Button
              appearance="subtle"
              icon={collapse ? <TextIndentIncreaseRegular /> : <TextIndentDecreaseRegular />}
              onClick={toggleCollapse}
              data-testid="fold-button"
            />
          </Tooltip>
        )}
        {!mobile && <Breadcrumb chain={chain} />}
      </div>
      {showTools && <HeaderTools compact={mobile} />}
    </div>
  );
}
