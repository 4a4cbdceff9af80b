import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { addErrorLog } from '@/store/errorLog';

interface Props {
  resetKey: string;
  children: ReactNode;
}

/** A crashing view shows its error (and is logged) instead of blanking the shell. */
export class ViewErrorBoundary extends Component<Props, { error: Error | null; key: string }> {
  state = { error: null as Error | null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: { error: Error | null; key: string }) {
    // Navigating elsewhere gives the views another chance.
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    addErrorLog(Object.assign(error, { stack: `${error.stack ?? ''}\n${info.componentStack ?? ''}` }));
  }

  render() {
    if (this.state.error) {
      return (
        <MessageBar intent="error">
          <MessageBarBody>
            <MessageBarTitle>{this.state.error.name}</MessageBarTitle>
            {this.state.error.message}
          </MessageBarBody>
        </MessageBar>
      );
    }
    return this.props.children;
  }
}
