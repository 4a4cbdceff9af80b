import { Button, Tooltip } from '@fluentui/react-components';
import { FullScreenMaximizeRegular } from '@fluentui/react-icons/svg/full-screen-maximize';
import { FullScreenMinimizeRegular } from '@fluentui/react-icons/svg/full-screen-minimize';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/utils/notify';

export function FullScreenButton() {
  const { t } = useTranslation();
  const [full, setFull] = useState(!!document.fullscreenElement);
  useEffect(() => {
    const onChange = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      notify(t('header.fullScreenFailed'), 'error');
    }
  };
  const label = t(full ? 'header.exitFullScreen' : 'header.fullScreen');
  return (
    <Tooltip content={label} relationship="label">
      <Button appearance="subtle" icon={full ? <FullScreenMinimizeRegular /> : <FullScreenMaximizeRegular />} onClick={toggle} />
    </Tooltip>
  );
}
