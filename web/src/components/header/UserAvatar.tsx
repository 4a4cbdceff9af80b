import { Avatar, Button, Menu, MenuDivider, MenuItem, MenuList, MenuPopover, MenuTrigger, makeStyles } from '@fluentui/react-components';
import { SignOutRegular } from '@fluentui/react-icons/svg/sign-out';
import { PersonRegular } from '@fluentui/react-icons/svg/person';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout } from '@/api/user';
import { personalCenterPath } from '@/router/buildRoutes';
import { routesStore } from '@/store/routes';
import { resetAll } from '@/store/session';
import { userStore } from '@/store/user';

const useStyles = makeStyles({ name: { maxWidth: '140px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } });

/** Avatar with a dropdown; logout calls the server, then resets the session. `compact` (a phone): the avatar alone, its name as the label. */
export function UserAvatar({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const username = userStore.use((s) => s.username);
  const avatar = userStore.use((s) => s.avatar);
  const routes = routesStore.use((s) => s.routes);
  const personalCenter = personalCenterPath(routes);

  const onLogout = async () => {
    try {
      await logout();
    } catch {
      /* the session is dropped locally whatever the server said */
    }
    resetAll();
    navigate('/login', { replace: true });
  };

  return (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="subtle" data-testid="user-menu" aria-label={compact ? username : undefined} icon={<Avatar size={28} name={username} image={{ src: avatar }} />}>
          {!compact && (
            <span className={styles.name} translate="no">
              {username}
            </span>
          )}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {personalCenter && (
            <>
              <MenuItem icon={<PersonRegular />} onClick={() => navigate(personalCenter)} data-testid="personal-center">
                {t('header.personalCenter')}
              </MenuItem>
              <MenuDivider />
            </>
          )}
          <MenuItem icon={<SignOutRegular />} onClick={onLogout} data-testid="logout">
            {t('header.logout')}
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
