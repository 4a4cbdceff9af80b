import { makeStyles } from '@fluentui/react-components';
import { SHOW_NOTICE } from '@/config';
import { usePermission } from '@/components/Permission';
import { settingsStore } from '@/store/settings';
import { ErrorLog } from './ErrorLog';
import { FullScreenButton } from './FullScreenButton';
import { LanguageSwitch } from './LanguageSwitch';
import { NoticePopover } from './NoticePopover';
import { RefreshButton } from './RefreshButton';
import { SearchDialog } from './SearchDialog';
import { ThemeButton } from './ThemeButton';
import { UserAvatar } from './UserAvatar';

const useStyles = makeStyles({ tools: { display: 'flex', alignItems: 'center', columnGap: '2px', flexShrink: 0 } });

/**
 * The header's right side; each icon follows its theme switch (showSearch,
 * showNotice, ...). On a narrow window (`compact`, below 992 px) every icon
 * stays, the theme one included (the theme panel is hidden there, so it is
 * the way to the theme drawer); the avatar drops its name to make room.
 */
export function HeaderTools({ compact }: { compact?: boolean }) {
  const styles = useStyles();
  const theme = settingsStore.use((s) => s.theme);
  // The notice list needs read:system on the server; without it the icon is not offered.
  const canReadNotices = usePermission(['read:system']);
  return (
    <div className={styles.tools} data-testid="header-tools">
      <ErrorLog />
      {theme.showSearch && <SearchDialog />}
      {theme.showNotice && SHOW_NOTICE && canReadNotices && <NoticePopover />}
      {theme.showFullScreen && <FullScreenButton />}
      {theme.showLanguage && <LanguageSwitch />}
      {theme.showTheme && <ThemeButton />}
      {theme.showRefresh && <RefreshButton />}
      <UserAvatar compact={compact} />
    </div>
  );
}
