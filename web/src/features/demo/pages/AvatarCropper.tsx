import { Body1, Button, Card, CardHeader, Field, Image, makeStyles, shorthands, Radio, RadioGroup, Slider, Subtitle2, tokens } from '@fluentui/react-components';
import { useCallback, useRef, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import { useTranslation } from 'react-i18next';
import { cropToDataUrl } from '../components/crop';
import { checkFile } from '../components/files';
import { useObjectUrl } from '../components/useObjectUrl';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'minmax(0, 3fr) minmax(260px, 2fr)', gap: '16px', alignItems: 'start', '@media (max-width: 992px)': { gridTemplateColumns: '1fr' } },
  card: { padding: '16px', rowGap: '12px' },
  area: { position: 'relative', height: '400px', backgroundColor: '#222', borderRadius: tokens.borderRadiusMedium, overflow: 'hidden' },
  row: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center' },
  result: { maxWidth: '100%', ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke2), borderRadius: tokens.borderRadiusMedium },
});

const ASPECTS: Record<string, number> = { '1:1': 1, '4:3': 4 / 3, '16:9': 16 / 9 };

/** Image cropper (react-easy-crop): choose a local image (or the sample), zoom, rotate, crop to PNG in the browser. */
export default function CropperPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [file, setFile] = useState<Blob | null>(null);
  const fileUrl = useObjectUrl(file);
  const src = file && fileUrl ? fileUrl : './demo/img-07.svg';
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  const [aspect, setAspect] = useState('1:1');
  const [area, setArea] = useState<Area | null>(null);
  const [result, setResult] = useState('');
  const [error, setError] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const onComplete = useCallback((_: Area, pixels: Area) => setArea(pixels), []);
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <div className={styles.area}>
          <Cropper image={src} crop={crop} zoom={zoom} rotation={rotation} aspect={ASPECTS[aspect]} onCropChange={setCrop} onZoomChange={setZoom} onRotationChange={setRotation} onCropComplete={onComplete} />
        </div>
        <div className={styles.row}>
          <Field label={t('dm.crop.zoom')} style={{ flex: 1, minWidth: '200px' }}>
            <Slider style={{ width: '100%' }} min={1} max={3} step={0.05} value={zoom} onChange={(_, d) => setZoom(d.value)} />
          </Field>
          <Field label={t('dm.crop.rotate')} style={{ flex: 1, minWidth: '200px' }}>
            <Slider style={{ width: '100%' }} min={0} max={360} step={1} value={rotation} onChange={(_, d) => setRotation(d.value)} />
          </Field>
        </div>
        <div className={styles.row}>
          <RadioGroup layout="horizontal" value={aspect} onChange={(_, d) => setAspect(d.value)} aria-label={t('dm.crop.aspect')}>
            {Object.keys(ASPECTS).map((a) => (
              <Radio key={a} value={a} label={a} />
            ))}
          </RadioGroup>
          <Button onClick={() => fileInput.current?.click()}>{t('dm.crop.choose')}</Button>
          <input
              ref={fileInput}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml"
              hidden
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                e.target.value = '';
                if (!chosen) return;
                const problem = checkFile(chosen, { accept: ['image/'], maxBytes: 10 * 1024 * 1024 });
                if (problem) {
                  setError(t(`dm.upload.problem.${problem.kind}`, problem));
                  return;
                }
                setError('');
                setFile(chosen);
                setZoom(1);
                setRotation(0);
              }}
            />
          <Button appearance="primary" disabled={!area} onClick={async () => area && setResult(await cropToDataUrl(src, area, rotation))} data-testid="crop-button">
            {t('dm.crop.crop')}
          </Button>
        </div>
        {error && <Body1 style={{ color: tokens.colorPaletteRedForeground1 }}>{error}</Body1>}
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.crop.result')}</Subtitle2>} />
        {result ? (
          <>
            <Image className={styles.result} src={result} alt={t('dm.crop.result')} data-testid="crop-result" />
            <Button as="a" href={result} download="cropped.png">
              {t('dm.common.download')}
            </Button>
          </>
        ) : (
          <Body1>{t('dm.crop.none')}</Body1>
        )}
      </Card>
    </div>
  );
}
