import { Button, Card, CardHeader, Divider, makeStyles, shorthands, Subtitle2, tokens, Toolbar, ToolbarButton, ToolbarDivider, ToolbarToggleButton } from '@fluentui/react-components';
import { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../components/sanitize';

const useStyles = makeStyles({
  page: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))', gap: '16px', alignItems: 'start' },
  card: { padding: '16px', rowGap: '8px' },
  toolbar: { flexWrap: 'wrap', padding: '0', '& button': { minWidth: '32px' } },
  editor: {
    minHeight: '320px',
    padding: '8px 12px',
    ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke1),
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    '& .ProseMirror': { outline: 'none', minHeight: '300px' },
    '& blockquote': { borderLeft: `3px solid ${tokens.colorBrandStroke1}`, margin: '0', paddingLeft: '12px', color: tokens.colorNeutralForeground2 },
    '& pre': { backgroundColor: tokens.colorNeutralBackground3, padding: '8px', borderRadius: '4px' },
  },
  preview: { '& blockquote': { borderLeft: `3px solid ${tokens.colorBrandStroke1}`, margin: '0', paddingLeft: '12px' }, '& pre': { backgroundColor: tokens.colorNeutralBackground3, padding: '8px' } },
  html: { margin: 0, padding: '12px', backgroundColor: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusMedium, whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: tokens.fontSizeBase200, maxHeight: '200px', overflow: 'auto' },
  foot: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', color: tokens.colorNeutralForeground3 },
});

const STORAGE = 'demo-rich-text';

/** Rich-text editor (TipTap on ProseMirror); the HTML output is sanitised with DOMPurify before it is shown. */
export default function RichTextEditorPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [html, setHtml] = useState('');
  const holder = useRef<HTMLDivElement>(null);
  // The text outlives a hidden keep-alive tab: its effects are cleaned up (editor destroyed) and run again on show.
  const kept = useRef<string | null>(null);
  const [editor, setEditor] = useState<Editor | null>(null);
  // Created once per mount; the language of the sample is the one at first show.
  const sample = useEffectEvent(() => t('dm.editor.sample'));
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const e = new Editor({
      element,
      extensions: [StarterKit],
      content: kept.current ?? localStorage.getItem(STORAGE) ?? sample(),
      onUpdate: ({ editor: ed }) => setHtml(ed.getHTML()),
    });
    setHtml(e.getHTML());
    setEditor(e);
    return () => {
      kept.current = e.getHTML();
      setEditor(null);
      e.destroy();
    };
  }, []);
  const state = useEditorState({
    editor,
    // A destroyed editor (hidden keep-alive tab) has no state to read.
    selector: ({ editor: live }) => {
      const e = live && !live.isDestroyed ? live : null;
      return {
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      strike: e?.isActive('strike') ?? false,
      h2: e?.isActive('heading', { level: 2 }) ?? false,
      h3: e?.isActive('heading', { level: 3 }) ?? false,
      bullet: e?.isActive('bulletList') ?? false,
      ordered: e?.isActive('orderedList') ?? false,
      quote: e?.isActive('blockquote') ?? false,
      code: e?.isActive('codeBlock') ?? false,
      canUndo: e?.can().undo() ?? false,
      canRedo: e?.can().redo() ?? false,
      chars: e?.getText().length ?? 0,
      };
    },
  });
  const chain = () => (editor && !editor.isDestroyed ? editor.chain().focus() : null);
  const checked = Object.entries(state ?? {})
    .filter(([, v]) => v === true)
    .map(([k]) => k);
  return (
    <div className={styles.page}>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.editor.rich')}</Subtitle2>} />
        <Toolbar size="small" className={styles.toolbar} checkedValues={{ marks: checked }} aria-label={t('dm.editor.toolbar')}>
          <ToolbarToggleButton name="marks" value="bold" onClick={() => chain()?.toggleBold().run()} style={{ fontWeight: 700 }}>
            B
          </ToolbarToggleButton>
          <ToolbarToggleButton name="marks" value="italic" onClick={() => chain()?.toggleItalic().run()} style={{ fontStyle: 'italic' }}>
            I
          </ToolbarToggleButton>
          <ToolbarToggleButton name="marks" value="strike" onClick={() => chain()?.toggleStrike().run()} style={{ textDecoration: 'line-through' }}>
            S
          </ToolbarToggleButton>
          <ToolbarDivider />
          <ToolbarToggleButton name="marks" value="h2" onClick={() => chain()?.toggleHeading({ level: 2 }).run()}>
            H2
          </ToolbarToggleButton>
          <ToolbarToggleButton name="marks" value="h3" onClick={() => chain()?.toggleHeading({ level: 3 }).run()}>
            H3
          </ToolbarToggleButton>
          <ToolbarToggleButton name="marks" value="bullet" onClick={() => chain()?.toggleBulletList().run()}>
            {t('dm.editor.bullet')}
          </ToolbarToggleButton>
          <ToolbarToggleButton name="marks" value="ordered" onClick={() => chain()?.toggleOrderedList().run()}>
            {t('dm.editor.ordered')}
          </ToolbarToggleButton>
          <ToolbarToggleButton name="marks" value="quote" onClick={() => chain()?.toggleBlockquote().run()}>
            {t('dm.editor.quote')}
          </ToolbarToggleButton>
          <ToolbarToggleButton name="marks" value="code" onClick={() => chain()?.toggleCodeBlock().run()}>
            {t('dm.editor.code')}
          </ToolbarToggleButton>
          <ToolbarDivider />
          <ToolbarButton disabled={!state?.canUndo} onClick={() => chain()?.undo().run()}>
            {t('dm.editor.undo')}
          </ToolbarButton>
          <ToolbarButton disabled={!state?.canRedo} onClick={() => chain()?.redo().run()}>
            {t('dm.editor.redo')}
          </ToolbarButton>
        </Toolbar>
        {/* What the user writes is theirs, in whatever language. */}
        <div ref={holder} className={styles.editor} data-testid="rich-editor" translate="no" />
        <div className={styles.foot}>
          <span>{t('dm.editor.chars', { n: state?.chars ?? 0 })}</span>
          <span>
            <Button size="small" onClick={() => editor?.commands.setContent(t('dm.editor.sample'), { emitUpdate: true })}>
              {t('dm.common.reset')}
            </Button>{' '}
            <Button size="small" appearance="primary" onClick={() => localStorage.setItem(STORAGE, sanitizeHtml(html))}>
              {t('dm.editor.saveLocal')}
            </Button>
          </span>
        </div>
      </Card>
      <Card className={styles.card}>
        <CardHeader header={<Subtitle2>{t('dm.editor.preview')}</Subtitle2>} />
        <div className={styles.preview} translate="no" dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }} />
        <Divider />
        <Subtitle2>HTML</Subtitle2>
        <pre className={styles.html}>{sanitizeHtml(html)}</pre>
      </Card>
    </div>
  );
}
