import '@logicflow/core/es/index.css';
import { Body1, Button, Card, Caption1, makeStyles, shorthands, MessageBar, MessageBarBody, Spinner, tokens } from '@fluentui/react-components';
import LogicFlow, { CircleNode, CircleNodeModel, DiamondNode, DiamondNodeModel, RectNode, RectNodeModel } from '@logicflow/core';
import { useEffect, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { getWorkflow, saveWorkflow, type WorkflowNodeType } from '../api/demo';
import { NODE_TYPES, toApiGraph, toRenderData, validateGraph } from '../components/graph';
import { notify } from '@/utils/notify';

const useStyles = makeStyles({
  card: { padding: '12px', rowGap: '8px' },
  bar: { display: 'flex', flexWrap: 'wrap', gap: '8px', alignItems: 'center', justifyContent: 'space-between' },
  group: { display: 'flex', flexWrap: 'wrap', gap: '6px', alignItems: 'center' },
  canvas: { height: 'calc(100vh - 300px)', minHeight: '420px', ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke2), borderRadius: tokens.borderRadiusMedium, overflow: 'hidden', position: 'relative' },
  hint: { color: tokens.colorNeutralForeground3 },
});

const COLOURS: Record<WorkflowNodeType, [string, string]> = {
  start: ['#2e9d5b', '#e6f6ec'],
  rect: ['#5b6b7f', '#ffffff'],
  user: ['#2f6fde', '#e8f0fd'],
  push: ['#e08a00', '#fff4e0'],
  download: ['#7a4fd6', '#f1ebfd'],
  end: ['#d13438', '#fdecec'],
};

function styled<T extends { getNodeStyle(): Record<string, unknown> }>(type: WorkflowNodeType, base: T) {
  const s = base.getNodeStyle();
  s.stroke = COLOURS[type][0];
  s.fill = COLOURS[type][1];
  s.strokeWidth = type === 'end' ? 3 : 1.5;
  return s;
}

/** The six node types as LogicFlow elements (circle start/end, rectangles, a diamond for push). */
function registerNodes(lf: LogicFlow) {
  const circle = (type: 'start' | 'end') =>
    class extends CircleNodeModel {
      setAttributes() {
        this.r = 30;
      }
      getNodeStyle() {
        return styled(type, { getNodeStyle: () => super.getNodeStyle() });
      }
    };
  const rect = (type: 'user' | 'download') =>
    class extends RectNodeModel {
      setAttributes() {
        this.width = 120;
        this.height = 50;
        this.radius = type === 'user' ? 25 : 6;
      }
      getNodeStyle() {
        const s = styled(type, { getNodeStyle: () => super.getNodeStyle() });
        if (type === 'download') s.strokeDasharray = '4 3';
        return s;
      }
    };
  class PushModel extends DiamondNodeModel {
    setAttributes() {
      this.rx = 60;
      this.ry = 32;
    }
    getNodeStyle() {
      return styled('push', { getNodeStyle: () => super.getNodeStyle() });
    }
  }
  lf.register({ type: 'start', view: CircleNode, model: circle('start') });
  lf.register({ type: 'end', view: CircleNode, model: circle('end') });
  lf.register({ type: 'user', view: RectNode, model: rect('user') });
  lf.register({ type: 'download', view: RectNode, model: rect('download') });
  lf.register({ type: 'push', view: DiamondNode, model: PushModel });
}

/** Workflow diagram editor (LogicFlow): loads from /workflow/getList, saves to /workflow/doEdit (persisted). */
export default function WorkflowPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const box = useRef<HTMLDivElement>(null);
  const lfRef = useRef<LogicFlow | null>(null);
  // The graph being edited survives a hidden keep-alive tab (its effects are cleaned up, the canvas destroyed).
  const kept = useRef<ReturnType<LogicFlow['getGraphData']> | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  const load = async (lf: LogicFlow) => {
    kept.current = null;
    setState('loading');
    try {
      lf.render(toRenderData(await getWorkflow()));
      lf.fitView(40, 40);
      setState('ready');
    } catch {
      lf.render({ nodes: [], edges: [] });
      setState('error');
    }
  };

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const lf = new LogicFlow({
      container: el,
      grid: { size: 10, visible: true, type: 'dot', config: { color: '#c8c8c8', thickness: 1 } },
      edgeType: 'polyline',
      keyboard: { enabled: true },
      stopScrollGraph: true,
      style: { polyline: { stroke: '#7a869a', strokeWidth: 1.5 }, nodeText: { fontSize: 13 } },
    });
    registerNodes(lf);
    lfRef.current = lf;
    if (kept.current) {
      lf.render(kept.current as Parameters<LogicFlow['render']>[0]);
      setState('ready');
    } else void load(lf);
    return () => {
      kept.current = lf.getGraphData();
      lf.destroy();
      lfRef.current = null;
    };
  }, []);

  const save = async () => {
    const lf = lfRef.current;
    if (!lf) return;
    const graph = toApiGraph(lf.getGraphData() as { nodes: unknown[]; edges: unknown[] });
    const found = validateGraph(graph).map((p) => t(`dm.flow.problem.${p.kind}`, p));
    setProblems(found);
    if (found.length) return;
    setBusy(true);
    try {
      notify(await saveWorkflow(graph), 'success');
    } catch {
      /* the request layer showed the server's message */
    } finally {
      setBusy(false);
    }
  };

  const startDrag = (type: WorkflowNodeType) => lfRef.current?.dnd.startDrag({ type, text: t(`dm.flow.node.${type}`) });

  return (
    <Card className={styles.card}>
      <div className={styles.bar}>
        <div className={styles.group}>
          <Caption1 className={styles.hint}>{t('dm.flow.palette')}</Caption1>
          {NODE_TYPES.map((type) => (
            <Button key={type} size="small" onMouseDown={() => startDrag(type)} style={{ borderColor: COLOURS[type][0], color: COLOURS[type][0] }}>
              {t(`dm.flow.node.${type}`)}
            </Button>
          ))}
        </div>
        <div className={styles.group}>
          <Button size="small" onClick={() => lfRef.current?.undo()}>
            {t('dm.editor.undo')}
          </Button>
          <Button size="small" onClick={() => lfRef.current?.redo()}>
            {t('dm.editor.redo')}
          </Button>
          <Button size="small" onClick={() => lfRef.current?.zoom(true)}>
            {t('dm.flow.zoomIn')}
          </Button>
          <Button size="small" onClick={() => lfRef.current?.zoom(false)}>
            {t('dm.flow.zoomOut')}
          </Button>
          <Button size="small" onClick={() => lfRef.current?.fitView(40, 40)}>
            {t('dm.flow.fit')}
          </Button>
          <Button size="small" onClick={() => lfRef.current && void load(lfRef.current)}>
            {t('dm.flow.reload')}
          </Button>
          <Button size="small" appearance="primary" disabled={busy || state === 'loading'} onClick={() => void save()} data-testid="workflow-save">
            {t('dm.common.save')}
          </Button>
        </div>
      </div>
      <Body1 className={styles.hint}>
        <Trans i18nKey="dm.flow.help" components={{ kbd: <kbd /> }} />
      </Body1>
      {problems.length > 0 && (
        <MessageBar intent="warning">
          <MessageBarBody>{problems.join('；')}</MessageBarBody>
        </MessageBar>
      )}
      {state === 'error' && (
        <MessageBar intent="error">
          <MessageBarBody>{t('dm.flow.loadFailed')}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.canvas}>
        <div ref={box} style={{ width: '100%', height: '100%' }} data-testid="workflow-canvas" translate="no" />
        {state === 'loading' && <Spinner style={{ position: 'absolute', inset: 0 }} />}
      </div>
    </Card>
  );
}
