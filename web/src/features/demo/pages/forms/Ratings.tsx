import { Field, Rating, RatingDisplay } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DemoGrid, Section } from '../../components/Section';

const TEXTS = ['terrible', 'bad', 'ok', 'good', 'great'] as const;

/** Rate gallery (Fluent Rating): basic, half steps, texts, read-only display. */
export default function RateDemo() {
  const { t } = useTranslation();
  const [value, setValue] = useState(3);
  const [half, setHalf] = useState(3.5);
  const [text, setText] = useState(4);
  return (
    <DemoGrid>
      <Section title={t('dm.form.rate.basic')} note={t('dm.form.selected', { value })} column>
        <Rating value={value} onChange={(_, d) => setValue(d.value)} aria-label={t('dm.form.rate.basic')} />
      </Section>
      <Section title={t('dm.form.rate.half')} note={t('dm.form.selected', { value: half })} column>
        <Rating step={0.5} value={half} onChange={(_, d) => setHalf(d.value)} color="marigold" aria-label={t('dm.form.rate.half')} />
      </Section>
      <Section title={t('dm.form.rate.texts')} column>
        <Field label={t(`dm.form.rate.${TEXTS[Math.max(0, Math.ceil(text) - 1)]}`)}>
          <Rating value={text} onChange={(_, d) => setText(d.value)} color="brand" size="large" />
        </Field>
      </Section>
      <Section title={t('dm.form.rate.readonly')} column>
        <RatingDisplay value={4.5} count={1280} />
        <RatingDisplay value={3} compact />
      </Section>
    </DemoGrid>
  );
}
