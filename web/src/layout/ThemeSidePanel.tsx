import { Button, makeStyles, tokens, Tooltip } from '@fluentui/react-components';
import { PaintBrushRegular } from '@fluentui/react-icons/svg/paint-brush';
import { ArrowShuffleRegular } from '@fluentui/react-icons/svg/arrow-shuffle';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { confirm } from '@/components/Confirm';
import { emitThemeEvent } from '@/theme/events';

const useStyles = makeStyles({
  panel: {
    position: 'fixed',
    right: 0,
    bottom: '96px',
    zIndex: 900,
    display: 'flex',
    flexDirection: 'column',
    rowGap: '2px',
    padding: '4px',
    borderRadius: `${tokens.borderRadiusLarge} 0 0 ${tokens.borderRadiusLarge}`,
    backgroundColor: tokens.colorBrandBackground,
    boxShadow: tokens.shadow8,
  },
  button: { color: tokens.colorNeutralForegroundOnBrand, ':hover': { color: tokens.colorNeutralForegroundOnBrand } },
});

/** Theme-setting side panel: theme configuration, random theme, clear cache. */
export function ThemeSidePanel() {
  const { t } = useTranslation();
  const styles = useStyles();
  const clearCache = async () => {
    if (!(await confirm(t('theme.clearCacheConfirm')))) return;
    localStorage.clear();
    location.reload();
  };
  const item = (label: string, icon: ReactElement, onClick: () => void | Promise<void>, testId: string) => (
    <Tooltip content={label} relationship="label" positioning="before">
      <Button appearance="transparent" className={styles.button} icon={icon} onClick={onClick} data-testid={testId} />
    </Tooltip>
  );
  return (
    <div className={styles.panel}>
      {item(t('theme.title'), <PaintBrushRegular />, () => emitThemeEvent('theme'), 'side-theme')}
      {item(t('theme.random'), <ArrowShuffleRegular />, () => emitThemeEvent('random-theme'), 'side-random-theme')}
      {item(t('theme.clearCache'), <DeleteRegular />, clearCache, 'side-clear-cache')}
    </div>
  );
}
