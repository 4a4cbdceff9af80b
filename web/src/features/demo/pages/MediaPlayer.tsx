import { Body1, Button, Card, CardHeader, makeStyles, Spinner, Subtitle2, tokens } from '@fluentui/react-components';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useObjectUrl } from '../components/useObjectUrl';
import { useTranslation } from 'react-i18next';
import { encodeWav, melody } from '../components/media';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))', gap: '16px', alignItems: 'start' },
  card: { padding: '16px', rowGap: '12px' },
  video: { width: '100%', aspectRatio: '16 / 9', backgroundColor: '#000', borderRadius: tokens.borderRadiusMedium },
  note: { color: tokens.colorNeutralForeground3 },
});

const NOTES = [523.25, 587.33, 659.25, 698.46, 783.99, 0, 783.99, 659.25, 523.25];

/** Draws one frame of the generated sample video. */
function drawFrame(ctx: CanvasRenderingContext2D, w: number, h: number, time: number) {
  const hue = (time * 60) % 360;
  const g = ctx.createLinearGradient(0, 0, w, h);
  g.addColorStop(0, `hsl(${hue}, 60%, 45%)`);
  g.addColorStop(1, `hsl(${(hue + 80) % 360}, 60%, 30%)`);
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = 'rgba(255,255,255,.85)';
  const x = w / 2 + Math.cos(time * 2) * w * 0.3;
  const y = h / 2 + Math.sin(time * 3) * h * 0.25;
  ctx.beginPath();
  ctx.arc(x, y, 28, 0, Math.PI * 2);
  ctx.fill();
  ctx.font = '24px sans-serif';
  ctx.fillText(`${time.toFixed(1)} s`, 20, h - 20);
}

/** HTML5 audio and video with samples generated in the browser (no external URLs). */
export default function PlayerPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const audio = useMemo(() => {
    const rate = 22_050;
    const wav = encodeWav(melody(NOTES, 0.35, rate), rate);
    return new Blob([wav.buffer as ArrayBuffer], { type: 'audio/wav' });
  }, []);
  const audioUrl = useObjectUrl(audio);
  const [video, setVideo] = useState<Blob | null>(null);
  const videoUrl = useObjectUrl(video);
  const [recording, setRecording] = useState(false);
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (el && ctx && !video) drawFrame(ctx, el.width, el.height, 0);
  }, [video]);
  const supported = typeof MediaRecorder !== 'undefined' && typeof HTMLCanvasElement.prototype.captureStream === 'function';

  const record = () => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx) return;
    setRecording(true);
    const stream = el.captureStream(30);
    const type = ['video/webm;codecs=vp9', 'video/webm;codecs=vp8', 'video/webm'].find((m) => MediaRecorder.isTypeSupported(m)) ?? '';
    const rec = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const chunks: Blob[] = [];
    rec.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    rec.onstop = () => {
      setVideo(new Blob(chunks, { type: type || 'video/webm' }));
      setRecording(false);
    };
    const begin = performance.now();
    const tick = () => {
      const s = (performance.now() - begin) / 1000;
      drawFrame(ctx, el.width, el.height, s);
      if (s < 4) requestAnimationFrame(tick);
      else rec.stop();
    };
    rec.start();
    tick();
  };

  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.player.audio')}</Subtitle2>} />
        <audio controls src={audioUrl} style={{ width: '100%' }} data-testid="audio" />
        <Body1 className={styles.note}>{t('dm.player.audioNote')}</Body1>
        <Button as="a" href={audioUrl} download="sample.wav" style={{ alignSelf: 'flex-start' }}>
          {t('dm.common.download')}
        </Button>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.player.video')}</Subtitle2>} />
        {video ? (
          <video className={styles.video} controls src={videoUrl} data-testid="video" />
        ) : (
          <canvas ref={canvas} width={640} height={360} className={styles.video} />
        )}
        <Body1 className={styles.note}>{supported ? t('dm.player.videoNote') : t('dm.player.unsupported')}</Body1>
        <div>
          {video ? (
            <Button onClick={() => setVideo(null)}>{t('dm.player.again')}</Button>
          ) : (
            <Button appearance="primary" disabled={!supported || recording} icon={recording ? <Spinner size="tiny" /> : undefined} onClick={record}>
              {recording ? t('dm.player.recording') : t('dm.player.generate')}
            </Button>
          )}
        </div>
      </Card>
    </div>
  );
}
