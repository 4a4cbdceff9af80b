import {
  Button,
  DrawerBody,
  DrawerFooter,
  DrawerHeader,
  DrawerHeaderTitle,
  Field,
  makeStyles,
  OverlayDrawer,
  Select,
  Switch,
  tokens,
} from '@fluentui/react-components';
import { DismissRegular } from '@fluentui/react-icons/svg/dismiss';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BACKGROUNDS,
  COLUMN_STYLES,
  LAYOUTS,
  TABS_BAR_STYLES,
  THEME_DRAWER_WIDTH_PX,
  THEME_NAMES,
  type ThemeSettings,
} from '@/config';
import { onThemeEvent } from '@/theme/events';
import { disabledControls, effectiveLayout, randomTheme } from '@/theme/rules';
import { applyTheme, restoreDefaultTheme, saveTheme, setThemeDrawerOpen, settingsStore } from '@/store/settings';

const useStyles = makeStyles({
  drawer: { width: `${THEME_DRAWER_WIDTH_PX}px` },
  body: { display: 'flex', flexDirection: 'column', rowGap: '12px', paddingBottom: '12px' },
  row: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', minHeight: '32px' },
  label: { fontSize: tokens.fontSizeBase300 },
  select: { width: '132px' },
  footer: { display: 'flex', flexWrap: 'wrap', columnGap: '8px', rowGap: '8px' },
});

type BoolField = {
  [K in keyof ThemeSettings]: ThemeSettings[K] extends boolean ? K : never;
}[keyof ThemeSettings];

const SWITCHES: BoolField[] = [
  'fixedHeader',
  'showProgressBar',
  'showTabs',
  'showTabsIcon',
  'showLanguage',
  'showRefresh',
  'showSearch',
  'showTheme',
  'showNotice',
  'showFullScreen',
  'showThemeSetting',
];

/** Random theme: mask, pick, apply, save; the mask closes 1 s after it is
 * on the screen (`useThemeMaskTimer`). */
export function applyRandomTheme(): void {
  const { theme, device } = settingsStore.get();
  settingsStore.set({ themeMask: true });
  saveTheme(randomTheme(theme, device));
}


/** The 280 px theme drawer, opened by the 'theme' event. */
export function ThemeDrawer() {
  const { t } = useTranslation();
  const styles = useStyles();
  const open = settingsStore.use((s) => s.themeDrawerOpen);
  const theme = settingsStore.use((s) => s.theme);
  const device = settingsStore.use((s) => s.device);
  const disabled = disabledControls(theme, device);

  useEffect(() => onThemeEvent('theme', () => setThemeDrawerOpen(true)), []);
  useEffect(() => onThemeEvent('random-theme', applyRandomTheme), []);

  const set = <K extends keyof ThemeSettings>(key: K, value: ThemeSettings[K]) => applyTheme({ ...settingsStore.get().theme, [key]: value });

  const select = <K extends 'layout' | 'themeName' | 'background' | 'columnStyle' | 'tabsBarStyle'>(
    key: K,
    values: readonly ThemeSettings[K][],
    labelKey: string,
    isDisabled = false,
  ) => (
    <Field label={t(`theme.${key}`)} orientation="horizontal" className={styles.row}>
      <Select
        className={styles.select}
        value={key === 'layout' ? effectiveLayout(theme.layout, device) : theme[key]}
        disabled={isDisabled}
        onChange={(_, d) => set(key, d.value as ThemeSettings[K])}
        data-testid={`theme-${key}`}
      >
        {values.map((v) => (
          <option key={v} value={v}>
            {t(`theme.${labelKey}.${v}`)}
          </option>
        ))}
      </Select>
    </Field>
  );

  const switchDisabled = (key: BoolField): boolean =>
    (key === 'showTabsIcon' && disabled.showTabsIcon) || (key === 'fixedHeader' && disabled.fixedHeader);

  return (
    <OverlayDrawer position="end" open={open} onOpenChange={(_, d) => setThemeDrawerOpen(d.open)} className={styles.drawer} data-testid="theme-drawer">
      <DrawerHeader>
        <DrawerHeaderTitle
          action={<Button appearance="subtle" aria-label={t('common.close')} icon={<DismissRegular />} onClick={() => setThemeDrawerOpen(false)} />}
        >
          {t('theme.title')}
        </DrawerHeaderTitle>
      </DrawerHeader>
      <DrawerBody className={styles.body}>
        {select('layout', LAYOUTS, 'layouts', disabled.layout)}
        {select('themeName', THEME_NAMES, 'themes')}
        {select('background', BACKGROUNDS, 'backgrounds', disabled.background)}
        {select('columnStyle', COLUMN_STYLES, 'columnStyles', disabled.columnStyle)}
        {select('tabsBarStyle', TABS_BAR_STYLES, 'tabsBarStyles', disabled.tabsBarStyle)}
        {SWITCHES.map((key) => (
          <div className={styles.row} key={key}>
            <span className={styles.label}>{t(`theme.${key}`)}</span>
            <Switch
              checked={theme[key]}
              disabled={switchDisabled(key)}
              onChange={(_, d) => set(key, d.checked)}
              data-testid={`theme-${key}`}
              aria-label={t(`theme.${key}`)}
            />
          </div>
        ))}
      </DrawerBody>
      <DrawerFooter className={styles.footer}>
        <Button appearance="primary" onClick={() => saveTheme(settingsStore.get().theme)} data-testid="theme-save">
          {t('theme.save')}
        </Button>
        <Button onClick={restoreDefaultTheme} data-testid="theme-restore">
          {t('theme.restore')}
        </Button>
        <Button appearance="subtle" onClick={applyRandomTheme} data-testid="theme-random">
          {t('theme.random')}
        </Button>
      </DrawerFooter>
    </OverlayDrawer>
  );
}
