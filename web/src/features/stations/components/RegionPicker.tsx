import { Dropdown, makeStyles, Option } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useAreaList, type AreaNode } from '../api/areas';

const useStyles = makeStyles({ row: { display: 'flex', columnGap: '8px', flexWrap: 'wrap', rowGap: '8px' }, dd: { minWidth: '140px' } });

/** Province / city / district from /area/getList; value is the list of codes. */
export function RegionPicker({ value, onChange }: { value: string[]; onChange: (codes: string[], names: string[]) => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const { data } = useAreaList();
  const levels: AreaNode[][] = [data ?? []];
  const chosen: AreaNode[] = [];
  value.forEach((code, i) => {
    const node = levels[i]?.find((n) => n.code === code);
    if (node) {
      chosen.push(node);
      levels.push('children' in node ? node.children : []);
    }
  });
  const labels = [t('dm.region.province'), t('dm.region.city'), t('dm.region.district')];
  return (
    <div className={styles.row}>
      {labels.map((label, i) => {
        const options = levels[i] ?? [];
        const disabled = i > 0 && (!chosen[i - 1] || !options.length);
        return (
          <Dropdown
            key={i}
            className={styles.dd}
            aria-label={label}
            placeholder={label}
            disabled={disabled}
            value={chosen[i]?.name ?? ''}
            selectedOptions={chosen[i] ? [chosen[i].code] : []}
            onOptionSelect={(_, d) => {
              const node = options.find((n) => n.code === d.optionValue);
              if (!node) return;
              const next = [...chosen.slice(0, i), node];
              // A city without districts completes the choice at two levels.
              const codes = next.map((n) => n.code);
              if (i === 1 && !('children' in node ? node.children : []).length) codes.push(node.code);
              onChange(codes, next.map((n) => n.name));
            }}
          >
            {options.map((n) => (
              <Option key={n.code} value={n.code}>
                {n.name}
              </Option>
            ))}
          </Dropdown>
        );
      })}
    </div>
  );
}
