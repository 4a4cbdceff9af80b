import { Body1, Card, CardHeader, makeStyles, shorthands, Menu, MenuDivider, MenuItem, MenuList, MenuPopover, Subtitle2, tokens, type PositioningVirtualElement } from '@fluentui/react-components';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  card: { padding: '20px', rowGap: '12px' },
  area: {
    height: '320px',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    ...shorthands.border('2px', 'dashed', tokens.colorNeutralStroke1),
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground2,
    userSelect: 'none',
  },
  log: { color: tokens.colorNeutralForeground3 },
});

const ACTIONS = ['refresh', 'copy', 'paste', 'rename', 'delete'] as const;

const pointAt = (x: number, y: number): PositioningVirtualElement => ({
  getBoundingClientRect: () => ({ x, y, top: y, left: x, bottom: y, right: x, width: 0, height: 0 }),
});

/** Context menu: right-click in the area opens a menu at the pointer. */
export default function ContextMenuPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [target, setTarget] = useState<PositioningVirtualElement | null>(null);
  const [open, setOpen] = useState(false);
  const [last, setLast] = useState('');
  return (
    <Card className={styles.card}>
      <CardHeader header={<Subtitle2>{t('dm.ctx.title')}</Subtitle2>} />
      <div
        className={styles.area}
        data-testid="context-area"
        onContextMenu={(e) => {
          e.preventDefault();
          setTarget(pointAt(e.clientX, e.clientY));
          setOpen(true);
        }}
      >
        <Body1>{t('dm.ctx.hint')}</Body1>
      </div>
      <Body1 className={styles.log}>{last ? t('dm.ctx.chosen', { action: t(`dm.ctx.${last as 'copy'}`) }) : t('dm.ctx.none')}</Body1>
      <Menu open={open} onOpenChange={(_, d) => setOpen(d.open)} positioning={{ target, position: 'below', align: 'start' }}>
        <MenuPopover>
          <MenuList>
            {ACTIONS.map((a) => (
              <Fragment key={a}>
                {a === 'delete' && <MenuDivider />}
                <MenuItem onClick={() => setLast(a)}>{t(`dm.ctx.${a}`)}</MenuItem>
              </Fragment>
            ))}
          </MenuList>
        </MenuPopover>
      </Menu>
    </Card>
  );
}
