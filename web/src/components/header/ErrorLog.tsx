import {
  Button,
  CounterBadge,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
  Tooltip,
} from '@fluentui/react-components';
import { BugRegular } from '@fluentui/react-icons/svg/bug';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearErrorLog, errorLogStore } from '@/store/errorLog';

const useStyles = makeStyles({
  anchor: { position: 'relative', display: 'inline-flex' },
  count: { position: 'absolute', top: '0px', right: '0px', pointerEvents: 'none' },
  surface: { width: '900px', maxWidth: '96vw' },
  stack: { whiteSpace: 'pre-wrap', fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase100, maxHeight: '300px', overflow: 'auto' },
  url: { wordBreak: 'break-all' },
  actions: { display: 'flex', columnGap: '6px', flexWrap: 'wrap' },
});

/** Error-log badge and dialog; rendered only when errors exist. */
export function ErrorLog() {
  const { t } = useTranslation();
  const styles = useStyles();
  const logs = errorLogStore.use((s) => s.logs);
  const [open, setOpen] = useState(false);
  if (logs.length === 0) return null;

  const searchFor = (engine: 'baidu' | 'google', message: string) => {
    const q = encodeURIComponent(message);
    const url = engine === 'baidu' ? `https://www.baidu.com/s?wd=${q}` : `https://www.google.com/search?q=${q}`;
    window.open(url, '_blank', 'noopener');
  };

  return (
    <>
      <Tooltip content={t('errorLog.badge', { count: logs.length })} relationship="label">
        <span className={styles.anchor}>
          <Button appearance="subtle" icon={<BugRegular />} onClick={() => setOpen(true)} data-testid="error-log-button" />
          <CounterBadge className={styles.count} size="small" count={logs.length} color="danger" />
        </span>
      </Tooltip>
      <Dialog open={open} onOpenChange={(_, d) => setOpen(d.open)}>
        <DialogSurface className={styles.surface}>
          <DialogBody>
            <DialogTitle>{t('errorLog.title')}</DialogTitle>
            <DialogContent>
              <Table size="small">
                <TableHeader>
                  <TableRow>
                    <TableHeaderCell>{t('errorLog.url')}</TableHeaderCell>
                    <TableHeaderCell>{t('errorLog.message')}</TableHeaderCell>
                    <TableHeaderCell>{t('errorLog.stack')}</TableHeaderCell>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {logs.map((log, i) => (
                    <TableRow key={i}>
                      <TableCell className={styles.url}>{log.url}</TableCell>
                      <TableCell>{log.message}</TableCell>
                      <TableCell>
                        <div className={styles.actions}>
                          <Tooltip content={<div className={styles.stack}>{log.stack || log.message}</div>} relationship="description">
                            <Button size="small">{t('errorLog.stack')}</Button>
                          </Tooltip>
                          <Button size="small" onClick={() => searchFor('baidu', log.message)}>
                            {t('errorLog.searchBaidu')}
                          </Button>
                          <Button size="small" onClick={() => searchFor('google', log.message)}>
                            {t('errorLog.searchGoogle')}
                          </Button>
                        </div>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setOpen(false)}>{t('common.cancel')}</Button>
              <Button
                appearance="primary"
                onClick={() => {
                  clearErrorLog();
                  setOpen(false);
                }}
              >
                {t('errorLog.hide')}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  );
}
