import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';

/** A route names a view key that has no page: a data error, shown plainly. */
export function MissingView({ viewKey }: { viewKey: string }) {
  const { t } = useTranslation();
  return (
    <MessageBar intent="error">
      <MessageBarBody>
        <MessageBarTitle>{t('missingView.title')}</MessageBarTitle>
        {t('missingView.description', { key: viewKey })}
      </MessageBarBody>
    </MessageBar>
  );
}
