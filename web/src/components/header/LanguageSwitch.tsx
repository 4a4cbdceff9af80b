import { Button, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger, Tooltip } from '@fluentui/react-components';
import { LocalLanguageRegular } from '@fluentui/react-icons/svg/local-language';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@/config';
import { changeLanguage } from '@/i18n';
import { setLanguage, settingsStore } from '@/store/settings';

const LABELS: Record<Language, string> = { zh: '中文简体', en: 'English' };

/** Switches locale (UI strings, titles, server msg language) and persists it. */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const language = settingsStore.use((s) => s.language);
  const choose = (lng: Language) => {
    setLanguage(lng);
    void changeLanguage(lng);
  };
  return (
    <Menu checkedValues={{ lang: [language] }} onCheckedValueChange={(_, d) => choose(d.checkedItems[0] as Language)} positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Tooltip content={t('header.language')} relationship="label">
          <Button appearance="subtle" icon={<LocalLanguageRegular />} data-testid="language-switch" />
        </Tooltip>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {LANGUAGES.map((lng) => (
            <MenuItemRadio key={lng} name="lang" value={lng} data-testid={`language-${lng}`}>
              {LABELS[lng]}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
