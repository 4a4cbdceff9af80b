import {
  Button,
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Input,
  makeStyles,
  mergeClasses,
  Spinner,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { DismissRegular } from '@fluentui/react-icons/svg/dismiss';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSearch, type SearchSuggestion } from '@/api/search';
import { SEARCH_DELAY_MS, SEARCH_DIALOG_WIDTH } from '@/config';
import { useTranslateTitle } from '@/i18n';
import { isExternal } from '@/router/buildRoutes';

const useStyles = makeStyles({
  surface: { width: SEARCH_DIALOG_WIDTH, maxWidth: '96vw', minWidth: '320px' },
  list: { listStyleType: 'none', margin: '8px 0 0', padding: 0, maxHeight: '50vh', overflowY: 'auto' },
  option: {
    padding: '8px 12px',
    borderRadius: tokens.borderRadiusMedium,
    cursor: 'pointer',
    display: 'flex',
    justifyContent: 'space-between',
    columnGap: '12px',
    ':hover': { backgroundColor: tokens.colorSubtleBackgroundHover },
  },
  highlighted: { backgroundColor: tokens.colorSubtleBackgroundHover },
  url: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  hint: { color: tokens.colorNeutralForeground3, padding: '8px 4px', fontSize: tokens.fontSizeBase200 },
});

/** Waits for the user to stop typing (suggestion delay 500 ms). */
function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * Header search: a 40%-wide dialog with autocomplete over /search/getList
 * (500 ms delay): pages by title in either language, and orders, stations, piles
 * and cards by number, name or code; a web search when nothing matches.
 */
export function SearchDialog() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const translate = useTranslateTitle();
  const [open, setOpen] = useState(false);
  const [keyword, setKeyword] = useState('');
  const [highlight, setHighlight] = useState(0);
  const debounced = useDebounced(keyword.trim(), SEARCH_DELAY_MS);
  const { data, isLoading } = useSearch(debounced, open);
  const list = data ?? [];

  const select = (item: SearchSuggestion) => {
    setOpen(false);
    setKeyword('');
    if (!item.url) {
      window.open(`https://www.baidu.com/s?wd=${encodeURIComponent(item.value)}`, '_blank', 'noopener');
    } else if (isExternal(item.url)) {
      window.open(item.url, '_blank', 'noopener');
    } else {
      navigate(item.url.replace(/^#/, ''));
    }
  };

  return (
    <>
      <Tooltip content={t('header.search')} relationship="label">
        <Button appearance="subtle" icon={<SearchRegular />} onClick={() => setOpen(true)} data-testid="search-button" />
      </Tooltip>
      <Dialog open={open} onOpenChange={(_, d) => setOpen(d.open)}>
        <DialogSurface className={styles.surface} data-testid="search-dialog">
          <DialogBody>
            <DialogTitle
              action={<Button appearance="subtle" aria-label={t('common.close')} icon={<DismissRegular />} onClick={() => setOpen(false)} />}
            >
              {t('search.title')}
            </DialogTitle>
            <DialogContent>
              <Input
                autoFocus
                style={{ width: '100%' }}
                contentBefore={<SearchRegular />}
                contentAfter={isLoading ? <Spinner size="extra-tiny" /> : undefined}
                placeholder={t('search.placeholder')}
                value={keyword}
                role="combobox"
                aria-expanded={list.length > 0}
                onChange={(_, d) => {
                  setKeyword(d.value);
                  setHighlight(0);
                }}
                onKeyDown={(e) => {
                  if (e.key === 'ArrowDown') setHighlight((h) => Math.min(h + 1, list.length - 1));
                  if (e.key === 'ArrowUp') setHighlight((h) => Math.max(h - 1, 0));
                  if (e.key === 'Enter' && list[highlight]) select(list[highlight]);
                }}
              />
              {!debounced && <div className={styles.hint}>{t('search.hint')}</div>}
              {debounced && !isLoading && list.length === 0 && <div className={styles.hint}>{t('search.empty')}</div>}
              <ul className={styles.list} role="listbox">
                {list.map((item, i) => (
                  <li
                    key={`${item.value}-${i}`}
                    role="option"
                    aria-selected={i === highlight}
                    className={mergeClasses(styles.option, i === highlight && styles.highlighted)}
                    onMouseEnter={() => setHighlight(i)}
                    onClick={() => select(item)}
                  >
                    <span>{item.kind === 'web' ? t('search.web', { value: item.value }) : item.kind && item.kind !== 'page' ? item.value : translate(item.value)}</span>
                    {item.url && <span className={styles.url}>{item.url}</span>}
                  </li>
                ))}
              </ul>
            </DialogContent>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
