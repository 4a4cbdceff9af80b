import { Body1, Button, Caption1, Card, Image, makeStyles, shorthands, MessageBar, MessageBarBody, Subtitle2, tokens } from '@fluentui/react-components';
import { ArrowUploadRegular } from '@fluentui/react-icons/svg/arrow-upload';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { DocumentRegular } from '@fluentui/react-icons/svg/document';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addFiles, checkFile, formatBytes, type FileRule } from '../components/files';
import { useObjectUrl } from '../components/useObjectUrl';

const useStyles = makeStyles({
  card: { padding: '20px', rowGap: '12px' },
  zone: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    rowGap: '8px',
    padding: '32px',
    ...shorthands.border('2px', 'dashed', tokens.colorNeutralStroke1),
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorNeutralBackground2,
    cursor: 'pointer',
    textAlign: 'center',
  },
  zoneOver: { backgroundColor: tokens.colorBrandBackground2 },
  icon: { fontSize: '40px', color: tokens.colorBrandForeground1 },
  list: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))', gap: '12px' },
  item: { display: 'flex', flexDirection: 'column', rowGap: '6px', padding: '8px', ...shorthands.border('1px', 'solid', tokens.colorNeutralStroke2), borderRadius: tokens.borderRadiusMedium },
  thumb: { width: '100%', height: '110px', objectFit: 'contain', backgroundColor: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusSmall, display: 'flex', alignItems: 'center', justifyContent: 'center' },
  name: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  row: { display: 'flex', justifyContent: 'space-between', alignItems: 'center' },
});

const RULE: FileRule = { accept: ['image/', 'application/pdf', 'text/plain', '.md', '.csv', '.xlsx'], maxBytes: 5 * 1024 * 1024 };
const LIMIT = 8;

interface Chosen {
  id: number;
  name: string;
  size: number;
  type: string;
  file: File;
}

/** An image preview whose object URL lives only while shown. */
function Preview({ file, className }: { file: File; className: string }) {
  const url = useObjectUrl(file);
  return url ? <Image className={className} src={url} alt={file.name} /> : <div className={className} />;
}

let nextId = 1;

/** File choosing demo: drag-drop or pick, local type/size/duplicate checks, previews. There is no upload server: nothing leaves the browser. */
export default function UploadPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<Chosen[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [over, setOver] = useState(false);

  const take = (list: FileList | null) => {
    if (!list?.length) return;
    const found: string[] = [];
    const ok: Chosen[] = [];
    for (const f of Array.from(list)) {
      const p = checkFile(f, RULE);
      if (p) {
        found.push(t(`dm.upload.problem.${p.kind}`, p));
        continue;
      }
      ok.push({ id: nextId++, name: f.name, size: f.size, type: f.type || '—', file: f });
    }
    const { list: next, skipped } = addFiles(files, ok, LIMIT);
    skipped.forEach((s) => found.push(t('dm.upload.problem.skipped', { name: s.name, limit: LIMIT })));
    setFiles(next);
    setProblems(found);
  };

  return (
    <Card className={styles.card}>
      <MessageBar intent="info">
        <MessageBarBody>{t('dm.upload.noServer')}</MessageBarBody>
      </MessageBar>
      <div
        className={`${styles.zone} ${over ? styles.zoneOver : ''}`}
        role="button"
        tabIndex={0}
        onClick={() => input.current?.click()}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
        onDragOver={(e) => (e.preventDefault(), setOver(true))}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          take(e.dataTransfer.files);
        }}
        data-testid="upload-zone"
      >
        <ArrowUploadRegular className={styles.icon} />
        <Subtitle2>{t('dm.upload.drop')}</Subtitle2>
        <Caption1>{t('dm.upload.rules', { max: formatBytes(RULE.maxBytes), limit: LIMIT })}</Caption1>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          accept="image/*,.pdf,.txt,.md,.csv,.xlsx"
          onChange={(e) => {
            take(e.target.files);
            e.target.value = '';
          }}
          data-testid="upload-input"
        />
      </div>
      {problems.length > 0 && (
        <MessageBar intent="warning">
          <MessageBarBody>{problems.join('；')}</MessageBarBody>
        </MessageBar>
      )}
      <div className={styles.row}>
        <Body1>{t('dm.upload.count', { n: files.length, size: formatBytes(files.reduce((s, f) => s + f.size, 0)) })}</Body1>
        <Button disabled={!files.length} onClick={() => setFiles([])}>
          {t('dm.upload.clear')}
        </Button>
      </div>
      <div className={styles.list} data-testid="upload-list">
        {files.map((f) => (
          <div key={f.id} className={styles.item}>
            {f.type.startsWith('image/') ? <Preview file={f.file} className={styles.thumb} /> : <div className={styles.thumb}><DocumentRegular fontSize={40} /></div>}
            <Body1 className={styles.name} title={f.name}>
              {f.name}
            </Body1>
            <div className={styles.row}>
              <Caption1>
                {formatBytes(f.size)} · {f.type}
              </Caption1>
              <Button size="small" appearance="subtle" icon={<DeleteRegular />} aria-label={t('dm.table.delete')} onClick={() => setFiles(files.filter((x) => x.id !== f.id))} />
            </div>
          </div>
        ))}
      </div>
    </Card>
  );
}
