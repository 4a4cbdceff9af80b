import { useEffect } from 'react';
import { MOBILE_BREAKPOINT_PX } from '@/config';
import { setDevice, settingsStore } from '@/store/settings';

/** Below 992 px the device is mobile (layout forced to vertical, sidebar folded). */
export function useDeviceWatcher(): void {
  useEffect(() => {
    const query = window.matchMedia(`(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`);
    const apply = () => {
      const mobile = query.matches;
      setDevice(mobile ? 'mobile' : 'desktop');
      // On mobile the sidebar starts folded; not persisted, it is the device's default.
      if (mobile) settingsStore.set({ collapse: true });
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, []);
}
