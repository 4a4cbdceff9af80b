import { FluentProvider } from '@fluentui/react-components';
import { useEffect } from 'react';
import { HashRouter } from 'react-router';
import { SWRConfig } from 'swr';
import { swrCache } from '@/api/swr';
import { ConfirmHost } from '@/components/Confirm';
import { LoadingMask } from '@/components/LoadingMask';
import { Notifier } from '@/components/Notifier';
import { ProgressBar } from '@/components/ProgressBar';
import { useTranslation } from 'react-i18next';
import { Guard } from '@/router/Guard';
import { settingsStore } from '@/store/settings';
import { useThemeMaskTimer } from '@/theme/mask';
import { appTheme } from '@/theme/themes';
import { loadingStore } from '@/utils/notify';

/** Body classes for the theme name and background (no background class for 'none'). */
function useBodyThemeClasses(themeName: string, background: string) {
  useEffect(() => {
    const classes = [`vab-theme-${themeName}`, ...(background !== 'none' ? [background] : [])];
    document.body.classList.add(...classes);
    return () => document.body.classList.remove(...classes);
  }, [themeName, background]);
}

export function App() {
  const { t } = useTranslation();
  const theme = settingsStore.use((s) => s.theme);
  const themeMask = settingsStore.use((s) => s.themeMask);
  useThemeMaskTimer(themeMask);
  const requestMask = loadingStore.use((s) => s.count > 0);
  useBodyThemeClasses(theme.themeName, theme.background);

  return (
    <FluentProvider theme={appTheme(theme.themeName)} style={{ minHeight: '100vh' }}>
      <SWRConfig value={{ provider: () => swrCache, revalidateOnFocus: false, shouldRetryOnError: false }}>
        <HashRouter>
          <Guard />
        </HashRouter>
      </SWRConfig>
      <ProgressBar enabled={theme.showProgressBar} />
      <Notifier />
      <ConfirmHost />
      {(themeMask || requestMask) && <LoadingMask label={themeMask ? t('theme.randomApplying') : undefined} />}
    </FluentProvider>
  );
}
