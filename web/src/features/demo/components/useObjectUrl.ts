import { useEffect, useState } from 'react';

/**
 * An object URL for a blob, alive while the component's effects are: a view
 * hidden by keep-alive (<Activity>) runs its effect cleanups, so the URL is
 * revoked then and made again when the view shows.
 */
export function useObjectUrl(blob: Blob | null | undefined): string {
  const [url, setUrl] = useState('');
  useEffect(() => {
    if (!blob) {
      setUrl('');
      return;
    }
    const made = URL.createObjectURL(blob);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [blob]);
  return url;
}
