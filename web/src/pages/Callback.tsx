import { Spinner } from '@fluentui/react-components';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { socialLogin } from '@/api/user';
import { saveToken } from '@/store/user';
import { notify } from '@/utils/notify';

/** Social-login callback: posts `code`/`state` from the query, then enters the app. */
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
    if (!code) {
      // The provider answers `error` (e.g. access_denied) when the user declined.
      notify(t(params.get('error') ? 'callback.failed' : 'callback.missingCode'), 'error');
      navigate('/login', { replace: true });
      return;
    }
    socialLogin({ code, state })
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
