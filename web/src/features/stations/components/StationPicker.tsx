import { Combobox, Option, Spinner } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STATION_CHOICES as CHOICES, useStationChoices, useStationNameLookup } from '../api/assets';
import { SEARCH_DELAY_MS } from '@/config';

interface Props {
  /** The chosen station's id; empty or undefined for all stations. */
  value?: string;
  /** The chosen station's id (undefined: all stations) and its name. */
  onChange: (stationId: string | undefined, name?: string) => void;
  'aria-label'?: string;
  className?: string;
  'data-testid'?: string;
}

/**
 * One station picker for every filter: the user types any part of a
 * station's name and the server answers the matching stations (no cap on
 * how many stations exist, one page per search), plus "all stations".
 */
export function StationPicker({ value, onChange, className, ...rest }: Props) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [debounced, setDebounced] = useState('');
  const [chosenName, setChosenName] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(typed.trim()), SEARCH_DELAY_MS / 2);
    return () => clearTimeout(timer);
  }, [typed]);
  const choices = useStationChoices(debounced);
  // A station chosen before this picker knew its name (a shared link, a reload).
  const known = choices.data?.list.find((s) => s.id === value);
  const detail = useStationNameLookup(value && !known && chosenName === null ? value : null);
  const name = !value ? '' : (known?.name ?? chosenName ?? detail.data?.station.name ?? value);
  const all = t('ast.connectors.allStations');

  return (
    <Combobox
      {...rest}
      className={className}
      freeform
      placeholder={t('picker.station.placeholder')}
      value={typed || (value ? name : all)}
      selectedOptions={[value ?? '']}
      expandIcon={choices.isValidating ? <Spinner size="extra-tiny" /> : undefined}
      onChange={(e) => setTyped(e.target.value)}
      onOpenChange={(_, d) => {
        if (!d.open) setTyped('');
      }}
      onOptionSelect={(_, d) => {
        // Typing text that matches no option makes Fluent clear its own
        // selection (no optionValue); the filter changes only when an option
        // is picked, and what was typed stays to be searched.
        if (d.optionValue === undefined) return;
        setTyped('');
        const picked = d.optionText && d.optionValue ? d.optionText.replace(/ \(.*\)$/, '') : null;
        setChosenName(picked);
        onChange(d.optionValue || undefined, picked ?? undefined);
      }}
    >
      <Option value="" text={all}>
        {all}
      </Option>
      {(choices.data?.list ?? []).map((s) => (
        <Option key={s.id} value={s.id} text={`${s.name} (${s.code})`}>
          {`${s.name} (${s.code})`}
        </Option>
      ))}
      {choices.data && choices.data.total > CHOICES ? (
        <Option value="__more" text="" disabled>
          {t('picker.station.more', { count: choices.data.total - CHOICES })}
        </Option>
      ) : null}
    </Combobox>
  );
}
