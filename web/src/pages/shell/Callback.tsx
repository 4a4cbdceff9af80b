import { Spinner } from '@fluentui/react-components';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { linkSocial, socialLogin } from '@/api/social';
import { saveToken, userStore } from '@/store/user';
import { notify } from '@/utils/notify';
import { takeFlow } from '@/utils/socialFlow';

/**
 * Social-login return: finds the flow this tab started for the returned
 * `state` and posts `{code, state, binding}` to sign in, or, for a flow
 * started from the personal center, to link the identity.
 */
export default function Callback() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code') ?? '';
    const state = params.get('state') ?? '';
    const flow = state ? takeFlow(state) : null;
    const signedIn = Boolean(userStore.get().token);
    const leave = () => navigate(flow?.intent === 'link' && signedIn ? flow.back || '/' : '/login', { replace: true });
    if (!flow) {
      // Not started in this tab (another browser, a reload after use, a forged link).
      notify(t('callback.notStartedHere'), 'error');
      leave();
      return;
    }
    if (!code) {
      // The provider answers `error` (e.g. access_denied) when the user declined.
      notify(t(params.get('error') ? 'callback.failed' : 'callback.missingCode'), 'error');
      leave();
      return;
    }
    const payload = { code, state, binding: flow.binding };
    if (flow.intent === 'link') {
      linkSocial(payload)
        .then(({ msg }) => notify(msg || t('callback.linked'), 'success'))
        .catch(() => undefined)
        .finally(leave);
      return;
    }
    socialLogin(payload)
      .then((tokens) => {
        saveToken(tokens);
        navigate('/', { replace: true });
      })
      .catch(() => navigate('/login', { replace: true }));
  }, [params, navigate, t]);

  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <Spinner label={t('callback.title')} />
    </div>
  );
}
