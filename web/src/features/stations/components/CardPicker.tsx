import { Combobox, Option, Spinner } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCardSearch, type CardStatus } from '../api/chargers';
import { SEARCH_DELAY_MS } from '@/config';

interface Props {
  /** The chosen card number; empty for none. */
  value: string;
  onChange: (idTag: string) => void;
  /** Only cards of this status (a card that may charge: Accepted). */
  status?: CardStatus;
  'aria-label'?: string;
  className?: string;
  'data-testid'?: string;
}

/**
 * One card picker for every form that names a card (remote start,
 * reservations): the user types the start of a card number, a holder's
 * name or a plate, and the server answers the matching cards (one search
 * per pause in typing, however many cards exist), each shown with its
 * holder and plate.
 */
export function CardPicker({ value, onChange, status, className, ...rest }: Props) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(typed.trim()), SEARCH_DELAY_MS / 2);
    return () => clearTimeout(timer);
  }, [typed]);
  const choices = useCardSearch(debounced, status);
  const list = choices.data?.list ?? [];
  return (
    <Combobox
      {...rest}
      className={className}
      freeform
      placeholder={t('picker.card.placeholder')}
      value={typed || value}
      selectedOptions={value ? [value] : []}
      expandIcon={choices.isValidating ? <Spinner size="extra-tiny" /> : undefined}
      onChange={(e) => setTyped(e.target.value)}
      onOpenChange={(_, d) => {
        if (!d.open) setTyped('');
      }}
      onOptionSelect={(_, d) => {
        // Typed text that matches no option clears Fluent's own selection
        // (no optionValue): the card changes only when one is picked.
        if (!d.optionValue) return;
        setTyped('');
        onChange(d.optionValue);
      }}
    >
      {list.map((c) => {
        const label = [c.idTag, c.holder, c.plate].filter(Boolean).join(' · ');
        return (
          <Option key={c.idTag} value={c.idTag} text={label}>
            {label}
          </Option>
        );
      })}
      {choices.data && list.length === 0 ? (
        <Option value="" text="" disabled>
          {t('picker.card.none')}
        </Option>
      ) : null}
      {choices.data?.more ? (
        <Option value="" text="" disabled>
          {t('picker.card.more')}
        </Option>
      ) : null}
    </Combobox>
  );
}
