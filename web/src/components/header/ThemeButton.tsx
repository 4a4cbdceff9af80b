import { Button, Tooltip } from '@fluentui/react-components';
import { PaintBrushRegular } from '@fluentui/react-icons/svg/paint-brush';
import { useTranslation } from 'react-i18next';
import { emitThemeEvent } from '@/theme/events';

/** Opens the theme drawer through the 'theme' event. */
export function ThemeButton() {
  const { t } = useTranslation();
  return (
    <Tooltip content={t('header.theme')} relationship="label">
      <Button appearance="subtle" icon={<PaintBrushRegular />} onClick={() => emitThemeEvent('theme')} data-testid="theme-button" />
    </Tooltip>
  );
}
