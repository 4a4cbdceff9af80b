import { Body1, Button, Card, CardHeader, Image, makeStyles, Subtitle2, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reorder } from '../../components/reorder';

const useStyles = makeStyles({
  bar: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: '12px', flexWrap: 'wrap', gap: '8px' },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: '16px' },
  card: { cursor: 'grab', transitionProperty: 'opacity, transform', transitionDuration: '150ms' },
  dragging: { opacity: 0.4 },
  over: { outline: `2px dashed ${tokens.colorBrandStroke1}`, outlineOffset: '2px' },
  img: { width: '100%', aspectRatio: '16 / 9' },
});

const INITIAL = Array.from({ length: 8 }, (_, i) => i + 1);

/** Card drag: reorder cards by drag and drop (HTML5 drag events). */
export default function CardDragPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [cards, setCards] = useState(INITIAL);
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  return (
    <div>
      <div className={styles.bar}>
        <Body1>{t('dm.drag.cardHint')}</Body1>
        <Button onClick={() => setCards(INITIAL)}>{t('dm.common.reset')}</Button>
      </div>
      <div className={styles.grid} data-testid="card-grid">
        {cards.map((n, i) => (
          <Card
            key={n}
            draggable
            className={`${styles.card} ${dragged === n ? styles.dragging : ''} ${over === n && dragged !== n ? styles.over : ''}`}
            onDragStart={(e) => {
              setDragged(n);
              e.dataTransfer.effectAllowed = 'move';
            }}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(n);
            }}
            onDrop={(e) => {
              e.preventDefault();
              if (dragged !== null) setCards(reorder(cards, cards.indexOf(dragged), i));
              setDragged(null);
              setOver(null);
            }}
            onDragEnd={() => (setDragged(null), setOver(null))}
          >
            <Image className={styles.img} src={`./demo/img-${String(n * 4).padStart(2, '0')}.svg`} alt="" draggable={false} />
            <CardHeader header={<Subtitle2>{t('dm.drag.card', { n })}</Subtitle2>} description={t('dm.drag.position', { n: i + 1 })} />
          </Card>
        ))}
      </div>
    </div>
  );
}
