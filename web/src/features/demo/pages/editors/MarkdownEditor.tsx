import { Button, Card, makeStyles, shorthands, Tab, TabList, Textarea, tokens, Toolbar, ToolbarButton } from '@fluentui/react-components';
import { marked } from 'marked';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sanitizeHtml } from '../../components/sanitize';
import { applyMarkdown, type MarkdownAction } from '../../components/markdown';

const useStyles = makeStyles({
  card: { padding: '16px', rowGap: '8px' },
  panes: { display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '12px', '@media (max-width: 992px)': { gridTemplateColumns: '1fr' } },
  textarea: { height: '460px', '& textarea': { fontFamily: tokens.fontFamilyMonospace, maxHeight: 'none' } },
  preview: {
    height: '460px',
    overflow: 'auto',
    padding: '0 16px',
    ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke2),
    borderRadius: tokens.borderRadiusMedium,
    '& pre': { backgroundColor: tokens.colorNeutralBackground3, padding: '8px', borderRadius: '4px', overflowX: 'auto' },
    '& code': { fontFamily: tokens.fontFamilyMonospace },
    '& blockquote': { borderLeft: `3px solid ${tokens.colorBrandStroke1}`, margin: 0, paddingLeft: '12px', color: tokens.colorNeutralForeground2 },
    '& table': { borderCollapse: 'collapse' },
    '& th, & td': { ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke2), padding: '4px 8px' },
  },
  bar: { display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap' },
  tools: { flexWrap: 'wrap', '& button': { minWidth: '40px' } },
});

const ACTIONS: MarkdownAction[] = ['bold', 'italic', 'heading', 'quote', 'code', 'link', 'list', 'table'];
const STORAGE = 'demo-markdown';

/** Markdown editor: text with a toolbar, live preview rendered by marked and sanitised with DOMPurify, export as .md. */
export default function MarkdownEditorPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const [text, setText] = useState(() => localStorage.getItem(STORAGE) ?? t('dm.editor.markdownSample'));
  const [mode, setMode] = useState('split');
  const ref = useRef<HTMLTextAreaElement>(null);
  const html = useMemo(() => sanitizeHtml(marked.parse(text, { async: false, gfm: true })), [text]);
  const act = (a: MarkdownAction) => {
    const el = ref.current;
    const next = applyMarkdown(text, el?.selectionStart ?? text.length, el?.selectionEnd ?? text.length, a);
    setText(next.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.start, next.end);
    });
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = 'document.md';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <Card className={styles.card}>
      <div className={styles.bar}>
        <Toolbar className={styles.tools} aria-label={t('dm.editor.toolbar')} size="small">
          {ACTIONS.map((a) => (
            <ToolbarButton key={a} onClick={() => act(a)}>
              {t(`dm.editor.md.${a}`)}
            </ToolbarButton>
          ))}
        </Toolbar>
        <TabList size="small" selectedValue={mode} onTabSelect={(_, d) => setMode(String(d.value))}>
          <Tab value="edit">{t('dm.editor.edit')}</Tab>
          <Tab value="split">{t('dm.editor.split')}</Tab>
          <Tab value="preview">{t('dm.editor.preview')}</Tab>
        </TabList>
      </div>
      <div className={styles.panes} style={mode === 'split' ? undefined : { gridTemplateColumns: '1fr' }}>
        {mode !== 'preview' && (
          <Textarea className={styles.textarea} textarea={{ ref }} value={text} onChange={(_, d) => setText(d.value)} resize="none" aria-label={t('dm.editor.markdown')} data-testid="md-input" />
        )}
        {mode !== 'edit' && <div className={styles.preview} data-testid="md-preview" translate="no" dangerouslySetInnerHTML={{ __html: html }} />}
      </div>
      <div className={styles.bar}>
        <span>{t('dm.editor.chars', { n: text.length })}</span>
        <span>
          <Button size="small" onClick={download}>
            {t('dm.editor.export')}
          </Button>{' '}
          <Button size="small" appearance="primary" onClick={() => localStorage.setItem(STORAGE, text)}>
            {t('dm.editor.saveLocal')}
          </Button>
        </span>
      </div>
    </Card>
  );
}
