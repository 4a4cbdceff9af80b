import { Button, Card, Field, makeStyles, SpinButton, Title1, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  card: { maxWidth: '560px', rowGap: '16px', padding: '24px' },
  number: { fontSize: '56px', lineHeight: '64px', color: tokens.colorBrandForeground1, fontVariantNumeric: 'tabular-nums' },
  row: { display: 'flex', columnGap: '12px', alignItems: 'flex-end', flexWrap: 'wrap' },
});

const easeOut = (p: number) => 1 - Math.pow(1 - p, 3);

/** A SpinButton change: its value, or the typed text when it is a number; else the previous value. */
function spinValue(d: { value?: number | null; displayValue?: string }, previous: number): number {
  const n = d.value ?? Number(d.displayValue);
  return Number.isFinite(n) ? n : previous;
}

/** Count-up demo: animates from 0 to a target over a duration. */
export default function CountDemo() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const [target, setTarget] = useState(99_999);
  const [duration, setDuration] = useState(3000);
  const [value, setValue] = useState(0);
  const frame = useRef(0);

  const start = useCallback(() => {
    cancelAnimationFrame(frame.current);
    const begin = performance.now();
    const tick = (now: number) => {
      const p = Math.min(1, (now - begin) / duration);
      setValue(Math.round(target * easeOut(p)));
      if (p < 1) frame.current = requestAnimationFrame(tick);
    };
    frame.current = requestAnimationFrame(tick);
  }, [target, duration]);

  // Only on first show; later runs are started by the button.
  const startOnShow = useEffectEvent(start);
  useEffect(() => {
    startOnShow();
    return () => cancelAnimationFrame(frame.current);
  }, []);

  return (
    <Card className={styles.card}>
      <Title1 className={styles.number} data-testid="count-value">
        {value.toLocaleString(i18n.language === 'zh' ? 'zh-CN' : 'en-US')}
      </Title1>
      <div className={styles.row}>
        <Field label={t('demo.count.target')}>
          <SpinButton value={target} min={0} step={1000} onChange={(_, d) => setTarget((v) => spinValue(d, v))} />
        </Field>
        <Field label={t('demo.count.duration')}>
          <SpinButton value={duration} min={100} step={500} onChange={(_, d) => setDuration((v) => spinValue(d, v))} />
        </Field>
        <Button appearance="primary" onClick={start}>
          {t('demo.count.start')}
        </Button>
        <Button
          onClick={() => {
            cancelAnimationFrame(frame.current);
            setValue(0);
          }}
        >
          {t('demo.count.reset')}
        </Button>
      </div>
    </Card>
  );
}
