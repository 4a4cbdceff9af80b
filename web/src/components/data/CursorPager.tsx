import { Button, Caption1, Dropdown, makeStyles, Option, tokens } from '@fluentui/react-components';
import { ChevronLeftRegular } from '@fluentui/react-icons/svg/chevron-left';
import { ChevronRightRegular } from '@fluentui/react-icons/svg/chevron-right';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  bar: { display: 'flex', alignItems: 'center', columnGap: '6px', justifyContent: 'flex-end', marginTop: '12px', flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  size: { minWidth: '110px' },
});

/** Previous / next paging for cursor lists (no page count: the cursor only goes forward). */
export function CursorPager({
  page,
  hasNext,
  pageSize,
  sizes = [20, 50, 100],
  onPrev,
  onNext,
  onSize,
}: {
  page: number;
  hasNext: boolean;
  pageSize: number;
  sizes?: number[];
  onPrev: () => void;
  onNext: () => void;
  onSize: (n: number) => void;
}) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <nav className={styles.bar}>
      <Dropdown className={styles.size} size="small" value={t('ord.perPage', { n: pageSize })} selectedOptions={[String(pageSize)]} onOptionSelect={(_, d) => onSize(Number(d.optionValue))}>
        {sizes.map((s) => (
          <Option key={s} value={String(s)} text={t('ord.perPage', { n: s })}>
            {t('ord.perPage', { n: s })}
          </Option>
        ))}
      </Dropdown>
      <Button size="small" icon={<ChevronLeftRegular />} disabled={page <= 1} onClick={onPrev} aria-label={t('ord.prev')} data-testid="page-prev" />
      <Caption1 className={styles.muted}>{t('ord.page', { n: page })}</Caption1>
      <Button size="small" icon={<ChevronRightRegular />} disabled={!hasNext} onClick={onNext} aria-label={t('ord.next')} data-testid="page-next" />
    </nav>
  );
}
