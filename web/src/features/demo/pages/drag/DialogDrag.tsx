import { Body1, Button, Card, CardHeader, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  card: { maxWidth: '560px', padding: '20px', rowGap: '12px' },
  title: { cursor: 'move', userSelect: 'none', touchAction: 'none' },
  pos: { color: tokens.colorNeutralForeground3 },
});

/** Draggable dialog: drag it by its title bar (pointer events; stays partly on screen). */
export default function DialogDragPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ px: number; py: number; x: number; y: number } | null>(null);
  const onDown = (e: React.PointerEvent) => {
    drag.current = { px: e.clientX, py: e.clientY, ...offset };
    (e.target as HTMLElement).setPointerCapture(e.pointerId);
  };
  const onMove = (e: React.PointerEvent) => {
    const d = drag.current;
    if (!d) return;
    // The pointer itself is clamped to the viewport, so the title bar stays reachable.
    const px = Math.min(window.innerWidth - 8, Math.max(8, e.clientX));
    const py = Math.min(window.innerHeight - 8, Math.max(8, e.clientY));
    setOffset({ x: d.x + px - d.px, y: d.y + py - d.py });
  };
  const onUp = () => (drag.current = null);
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{t('dm.drag.dialogTitle')}</Subtitle2>} />
      <Body1>{t('dm.drag.dialogHint')}</Body1>
      <div>
        <Button appearance="primary" onClick={() => (setOffset({ x: 0, y: 0 }), setOpen(true))} data-testid="open-drag-dialog">
          {t('dm.drag.open')}
        </Button>
      </div>
      <Dialog open={open} onOpenChange={(_, d) => setOpen(d.open)} modalType="non-modal">
        <DialogSurface style={{ transform: `translate(${offset.x}px, ${offset.y}px)`, maxWidth: '440px' }}>
          <DialogBody>
            <DialogTitle className={styles.title} onPointerDown={onDown} onPointerMove={onMove} onPointerUp={onUp} data-testid="drag-handle">
              {t('dm.drag.dialogName')}
            </DialogTitle>
            <DialogContent>
              <Body1>{t('dm.drag.dialogBody')}</Body1>
              <Body1 className={styles.pos} block>
                {t('dm.drag.offset', { x: Math.round(offset.x), y: Math.round(offset.y) })}
              </Body1>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOffset({ x: 0, y: 0 })}>{t('dm.common.reset')}</Button>
              <Button appearance="primary" onClick={() => setOpen(false)}>
                {t('common.confirm')}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </Card>
  );
}
