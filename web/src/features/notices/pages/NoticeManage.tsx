import { Card, makeStyles, Subtitle1 } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useNotices } from '@/api/notice';
import { PublishedNotices } from '@/components/header/NoticeManager';

const useStyles = makeStyles({ card: { padding: '16px', rowGap: '12px' } });

/** /notice/manage: the publishers' notice page, from the menu (the bell opens the same list in a dialog). */
export default function NoticeManage() {
  const { t } = useTranslation();
  const styles = useStyles();
  // The bell's list follows what is published here.
  const { mutate } = useNotices();
  return (
    <Card className={styles.card} data-testid="notice-page">
      <Subtitle1 as="h2">{t('notice.manageTitle')}</Subtitle1>
      <PublishedNotices active onChanged={() => void mutate()} />
    </Card>
  );
}
