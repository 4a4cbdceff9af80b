import { Button, Caption1, Input, makeStyles, shorthands, Popover, PopoverSurface, PopoverTrigger, tokens } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRemixIcons } from '../api/demo';
import { Pager } from '@/components/data/Pager';
import { RemixIcon } from './remixIcons';

const useStyles = makeStyles({
  surface: { width: '420px', display: 'flex', flexDirection: 'column', rowGap: '8px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(8, 1fr)', gap: '4px' },
  cell: {
    height: '40px',
    ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke2),
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    cursor: 'pointer',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    ':hover': { ...shorthands.borderColor(tokens.colorBrandStroke1) },
  },
  current: { ...shorthands.borderColor(tokens.colorBrandStroke1), backgroundColor: tokens.colorBrandBackground2 },
});

/** A popover icon picker over /remixIcon/getList (filter + paging, 32 per page). */
export function IconPicker({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState({ pageNo: 1, pageSize: 32, title: '' });
  const { data } = useRemixIcons(query, open);
  return (
    <Popover open={open} onOpenChange={(_, d) => setOpen(d.open)} positioning="below-start" trapFocus>
      <PopoverTrigger disableButtonEnhancement>
        <Button icon={value ? <RemixIcon name={value} size={18} /> : undefined} data-testid="icon-picker">
          {value || t('dm.icon.choose')}
        </Button>
      </PopoverTrigger>
      <PopoverSurface className={styles.surface}>
        <Input
          size="small"
          contentBefore={<SearchRegular />}
          placeholder={t('dm.icon.filter')}
          value={query.title}
          onChange={(_, d) => setQuery({ ...query, pageNo: 1, title: d.value.trim() })}
        />
        <div className={styles.grid}>
          {(data?.list ?? []).map((name) => (
            <button
              type="button"
              key={name}
              title={name}
              aria-label={name}
              className={`${styles.cell} ${name === value ? styles.current : ''}`}
              onClick={() => {
                onChange(name);
                setOpen(false);
              }}
            >
              <RemixIcon name={name} size={20} />
            </button>
          ))}
        </div>
        {data && !data.list.length && <Caption1>{t('dm.common.empty')}</Caption1>}
        <Pager page={query.pageNo} pageSize={query.pageSize} total={data?.total ?? 0} sizes={[32]} onChange={(pageNo) => setQuery({ ...query, pageNo })} />
      </PopoverSurface>
    </Popover>
  );
}
