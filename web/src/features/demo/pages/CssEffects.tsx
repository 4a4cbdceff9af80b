import { Caption1, Card, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const brand = tokens.colorBrandBackground;
const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: '16px' },
  cell: { height: '160px', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', rowGap: '16px', padding: '12px' },
  stage: { height: '80px', display: 'flex', alignItems: 'center', justifyContent: 'center' },
  // 1. shine sweep on hover
  shine: {
    position: 'relative',
    overflow: 'hidden',
    padding: '10px 24px',
    color: '#fff',
    backgroundColor: brand,
    borderRadius: '6px',
    cursor: 'pointer',
    '::after': { content: '""', position: 'absolute', top: 0, left: '-75%', width: '50%', height: '100%', background: 'linear-gradient(90deg, transparent, rgba(255,255,255,.6), transparent)', transform: 'skewX(-20deg)' },
    ':hover::after': { left: '125%', transitionProperty: 'left', transitionDuration: '700ms' },
  },
  // 2. pulse ring
  pulse: {
    width: '24px',
    height: '24px',
    borderRadius: '50%',
    backgroundColor: brand,
    animationName: { '0%': { boxShadow: '0 0 0 0 rgba(0,120,90,.6)' }, '100%': { boxShadow: '0 0 0 24px rgba(0,120,90,0)' } },
    animationDuration: '1.4s',
    animationIterationCount: 'infinite',
  },
  // 3. bouncing dots
  dots: { display: 'flex', columnGap: '8px' },
  dot: {
    width: '12px',
    height: '12px',
    borderRadius: '50%',
    backgroundColor: brand,
    animationName: { '0%, 80%, 100%': { transform: 'scale(0.3)', opacity: 0.4 }, '40%': { transform: 'scale(1)', opacity: 1 } },
    animationDuration: '1.2s',
    animationIterationCount: 'infinite',
  },
  // 4. gradient text
  gradientText: {
    fontSize: '28px',
    fontWeight: 700,
    backgroundImage: 'linear-gradient(90deg, #0f9d58, #2f6fde, #e08a00, #0f9d58)',
    backgroundSize: '300% 100%',
    WebkitBackgroundClip: 'text',
    backgroundClip: 'text',
    color: 'transparent',
    animationName: { '0%': { backgroundPosition: '0% 50%' }, '100%': { backgroundPosition: '100% 50%' } },
    animationDuration: '4s',
    animationIterationCount: 'infinite',
    animationDirection: 'alternate',
  },
  // 5. underline grow
  underline: {
    position: 'relative',
    fontSize: '18px',
    cursor: 'pointer',
    '::after': { content: '""', position: 'absolute', left: 0, bottom: '-4px', width: '100%', height: '2px', backgroundColor: brand, transform: 'scaleX(0)', transformOrigin: 'right', transitionProperty: 'transform', transitionDuration: '300ms' },
    ':hover::after': { transform: 'scaleX(1)', transformOrigin: 'left' },
  },
  // 6. flip card
  flip: { width: '120px', height: '72px', perspective: '600px', cursor: 'pointer', ':hover > div': { transform: 'rotateY(180deg)' } },
  flipInner: { position: 'relative', width: '100%', height: '100%', transitionProperty: 'transform', transitionDuration: '600ms', transformStyle: 'preserve-3d' },
  face: { position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', borderRadius: '8px', backfaceVisibility: 'hidden', color: '#fff' },
  front: { backgroundColor: brand },
  back: { backgroundColor: '#e08a00', transform: 'rotateY(180deg)' },
  // 7. charging battery
  battery: { width: '90px', height: '40px', borderRadius: '6px', position: 'relative', boxShadow: `inset 0 0 0 3px ${tokens.colorNeutralForeground2}`, padding: '5px', boxSizing: 'border-box' },
  cap: { position: 'absolute', right: '-8px', top: '12px', width: '5px', height: '16px', borderRadius: '0 3px 3px 0', backgroundColor: tokens.colorNeutralForeground2 },
  level: {
    height: '100%',
    borderRadius: '3px',
    backgroundColor: '#2e9d5b',
    animationName: { '0%': { width: '5%', backgroundColor: '#d13438' }, '50%': { backgroundColor: '#e0a800' }, '100%': { width: '100%', backgroundColor: '#2e9d5b' } },
    animationDuration: '3s',
    animationIterationCount: 'infinite',
  },
  // 8. spinner ring
  ring: {
    width: '44px',
    height: '44px',
    borderRadius: '50%',
    borderTop: `4px solid ${brand}`,
    borderRight: '4px solid transparent',
    borderBottom: `4px solid ${brand}`,
    borderLeft: '4px solid transparent',
    animationName: { to: { transform: 'rotate(360deg)' } },
    animationDuration: '1s',
    animationTimingFunction: 'linear',
    animationIterationCount: 'infinite',
  },
  // 9. lift on hover
  lift: {
    padding: '14px 20px',
    borderRadius: '8px',
    backgroundColor: tokens.colorNeutralBackground3,
    transitionProperty: 'transform, box-shadow',
    transitionDuration: '200ms',
    cursor: 'pointer',
    ':hover': { transform: 'translateY(-6px)', boxShadow: tokens.shadow16 },
  },
});

/** CSS effects gallery (pure CSS: hover, keyframes, 3D transforms). */
export default function CssfxPage() {
  const { t } = useTranslation();
  const s = useStyles();
  const items: [string, ReactNode][] = [
    ['shine', <span className={s.shine}>{t('dm.cssfx.hoverMe')}</span>],
    ['pulse', <span className={s.pulse} />],
    [
      'dots',
      <span className={s.dots}>
        {[0, 1, 2].map((i) => (
          <span key={i} className={s.dot} style={{ animationDelay: `${i * 0.16}s` }} />
        ))}
      </span>,
    ],
    ['gradient', <span className={s.gradientText}>{t('dm.cssfx.newEnergy')}</span>],
    ['underline', <span className={s.underline}>{t('dm.cssfx.hoverMe')}</span>],
    [
      'flip',
      <div className={s.flip}>
        <div className={s.flipInner}>
          <div className={`${s.face} ${s.front}`}>{t('dm.cssfx.front')}</div>
          <div className={`${s.face} ${s.back}`}>{t('dm.cssfx.back')}</div>
        </div>
      </div>,
    ],
    [
      'battery',
      <div className={s.battery}>
        <div className={s.level} />
        <span className={s.cap} />
      </div>,
    ],
    ['ring', <span className={s.ring} />],
    ['lift', <span className={s.lift}>{t('dm.cssfx.hoverMe')}</span>],
  ];
  return (
    <div className={s.grid}>
      {items.map(([key, node]) => (
        <Card key={key} className={s.cell}>
          <div className={s.stage}>{node}</div>
          <Caption1>{t(`dm.cssfx.${key}`)}</Caption1>
        </Card>
      ))}
    </div>
  );
}
