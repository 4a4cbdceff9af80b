import { Button, Caption1, Dropdown, makeStyles, Option, tokens, Tooltip } from '@fluentui/react-components';
import { ChevronDoubleLeftRegular } from '@fluentui/react-icons/svg/chevron-double-left';
import { ChevronDoubleRightRegular } from '@fluentui/react-icons/svg/chevron-double-right';
import { ChevronLeftRegular } from '@fluentui/react-icons/svg/chevron-left';
import { ChevronRightRegular } from '@fluentui/react-icons/svg/chevron-right';
import { useTranslation } from 'react-i18next';
import { fromOldest, hasNewer, hasOlder, pageCount, pageNumber, type CursorPages } from './cursorPages';

const useStyles = makeStyles({
  bar: { display: 'flex', alignItems: 'center', columnGap: '6px', justifyContent: 'flex-end', marginTop: '12px', flexWrap: 'wrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  size: { minWidth: '110px' },
});

export interface CursorPagerProps {
  pages: CursorPages;
  /** The number of items, when known (null: the filter has no count). */
  total: number | null | undefined;
  pageSize: number;
  sizes?: number[];
  onNewest: () => void;
  /** The jump to the oldest page, where the list can be read from that end. */
  onOldest?: () => void;
  onNewer: () => void;
  onOlder: () => void;
  onSize: (n: number) => void;
}

/**
 * Paging for cursor lists, newest first: the total, newer / older, and jumps
 * to the newest and the oldest page (the oldest is read from the other end,
 * so no page in between is fetched).
 */
export function CursorPager({
  pages,
  total,
  pageSize,
  sizes = [20, 50, 100],
  onNewest,
  onOldest,
  onNewer,
  onOlder,
  onSize,
}: CursorPagerProps) {
  const { t } = useTranslation();
  const styles = useStyles();
  const count = pageCount(total, pageSize);
  const n = pageNumber(pages, pageSize, total);
  const atNewest = !fromOldest(pages) && pages.page === 1;
  const atOldest = (fromOldest(pages) && pages.page === 1) || (n != null && count != null && n >= count && !hasOlder(pages));
  const label = n == null ? t('ord.pageFromEnd', { n: pages.page }) : count == null ? t('ord.page', { n }) : t('ord.pageOf', { n, pages: count });
  return (
    <nav className={styles.bar} data-testid="pager">
      {total != null && (
        <Caption1 className={styles.muted} data-testid="page-total">
          {t('ord.total', { total })}
        </Caption1>
      )}
      <Dropdown className={styles.size} size="small" value={t('ord.perPage', { n: pageSize })} selectedOptions={[String(pageSize)]} onOptionSelect={(_, d) => onSize(Number(d.optionValue))}>
        {sizes.map((s) => (
          <Option key={s} value={String(s)} text={t('ord.perPage', { n: s })}>
            {t('ord.perPage', { n: s })}
          </Option>
        ))}
      </Dropdown>
      <Tooltip content={t('ord.newest')} relationship="label">
        <Button size="small" icon={<ChevronDoubleLeftRegular />} disabled={atNewest} onClick={onNewest} data-testid="page-first" />
      </Tooltip>
      <Button size="small" icon={<ChevronLeftRegular />} disabled={!hasNewer(pages)} onClick={onNewer} aria-label={t('ord.prev')} data-testid="page-prev" />
      <Caption1 className={styles.muted} data-testid="page-label">
        {label}
      </Caption1>
      <Button size="small" icon={<ChevronRightRegular />} disabled={!hasOlder(pages)} onClick={onOlder} aria-label={t('ord.next')} data-testid="page-next" />
      {onOldest && (
        <Tooltip content={t('ord.oldest')} relationship="label">
          <Button size="small" icon={<ChevronDoubleRightRegular />} disabled={atOldest} onClick={onOldest} data-testid="page-last" />
        </Tooltip>
      )}
    </nav>
  );
}
