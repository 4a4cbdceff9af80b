import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { Component, type ReactNode } from 'react';
import { withTranslation, type WithTranslation } from 'react-i18next';
import { CHUNK_LOAD_TIMEOUT_MS } from '@/config';
import { ChunkLoadError } from '@/utils/preloadable';

interface Props extends WithTranslation {
  /** Ask for the code again (a new lazy component), then render the children again. */
  onRetry: () => void;
  children: ReactNode;
}

/**
 * A view whose code did not load (failed, or not within the chunk-load
 * timeout) shows why and a retry in its tab, instead of a blank page. Other
 * errors go on to the view's own error boundary.
 */
class ChunkBoundaryInner extends Component<Props, { error: unknown }> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  render() {
    const { t } = this.props;
    const { error } = this.state;
    // Not ours: thrown on to the view's error boundary.
    if (error && !(error instanceof ChunkLoadError)) throw error;
    if (error instanceof ChunkLoadError) {
      return (
        <MessageBar intent="warning" layout="multiline" data-testid="chunk-retry">
          <MessageBarBody>
            <MessageBarTitle>{t('chunk.title')}</MessageBarTitle>
            {error.timedOut ? t('chunk.timedOut', { s: Math.round(CHUNK_LOAD_TIMEOUT_MS / 1000) }) : t('chunk.failed')}
          </MessageBarBody>
          <MessageBarActions>
            <Button
              appearance="primary"
              data-testid="chunk-retry-button"
              onClick={() => {
                this.props.onRetry();
                this.setState({ error: null });
              }}
            >
              {t('chunk.retry')}
            </Button>
          </MessageBarActions>
        </MessageBar>
      );
    }
    return this.props.children;
  }
}

export const ChunkBoundary = withTranslation()(ChunkBoundaryInner);
