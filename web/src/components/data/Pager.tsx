import { Button, Caption1, Dropdown, makeStyles, Option, tokens } from '@fluentui/react-components';
import { ChevronLeftRegular } from '@fluentui/react-icons/svg/chevron-left';
import { ChevronRightRegular } from '@fluentui/react-icons/svg/chevron-right';
import { useTranslation } from 'react-i18next';
import { pageCount, pageItems } from './paging';

const useStyles = makeStyles({
  bar: { display: 'flex', alignItems: 'center', columnGap: '6px', flexWrap: 'wrap', rowGap: '6px', justifyContent: 'flex-end', marginTop: '12px' },
  total: { color: tokens.colorNeutralForeground3, marginRight: '8px' },
  page: { minWidth: '32px' },
  size: { minWidth: '110px' },
});

export interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onChange: (page: number, pageSize: number) => void;
  sizes?: number[];
}

/** Page buttons, total and page size (the template's pagination bar). */
export function Pager({ page, pageSize, total, onChange, sizes = [10, 20, 50] }: PagerProps) {
  const { t } = useTranslation();
  const styles = useStyles();
  const count = pageCount(total, pageSize);
  return (
    <nav className={styles.bar} aria-label={t('dm.pager.label')}>
      <Caption1 className={styles.total}>{t('dm.pager.total', { total })}</Caption1>
      <Dropdown
        className={styles.size}
        size="small"
        aria-label={t('dm.pager.pageSize')}
        value={t('dm.pager.perPage', { n: pageSize })}
        selectedOptions={[String(pageSize)]}
        onOptionSelect={(_, d) => onChange(1, Number(d.optionValue))}
      >
        {sizes.map((s) => (
          <Option key={s} value={String(s)} text={t('dm.pager.perPage', { n: s })}>
            {t('dm.pager.perPage', { n: s })}
          </Option>
        ))}
      </Dropdown>
      <Button size="small" appearance="subtle" icon={<ChevronLeftRegular />} disabled={page <= 1} aria-label={t('dm.pager.prev')} onClick={() => onChange(page - 1, pageSize)} />
      {pageItems(page, count).map((p, i) =>
        p === 'gap' ? (
          <Caption1 key={`gap${i}`}>…</Caption1>
        ) : (
          <Button
            key={p}
            size="small"
            className={styles.page}
            appearance={p === page ? 'primary' : 'subtle'}
            aria-current={p === page ? 'page' : undefined}
            onClick={() => onChange(p, pageSize)}
          >
            {p}
          </Button>
        ),
      )}
      <Button size="small" appearance="subtle" icon={<ChevronRightRegular />} disabled={page >= count} aria-label={t('dm.pager.next')} onClick={() => onChange(page + 1, pageSize)} />
    </nav>
  );
}
