import type { ReactNode } from 'react';

/**
 * Data shown as it is in either language (a station's name, an address, a
 * plate, a user name): marked `translate="no"`, the HTML attribute for
 * content that is not to be translated, so the pages' one-language check
 * (and a browser's translator) leaves it alone.
 */
export function DataText({ children, className, title }: { children: ReactNode; className?: string; title?: string }) {
  return (
    <span translate="no" className={className} title={title}>
      {children}
    </span>
  );
}

/** Where the data goes in a translated sentence (`t(key, { name: DATA_SLOT })`), for `WithData`. */
export const DATA_SLOT = '\u0000';

/** A translated sentence with data inside it: the words around, the data marked as such. */
export function WithData({ sentence, data }: { sentence: string; data: ReactNode }) {
  const [before, after = ''] = sentence.split(DATA_SLOT);
  return (
    <>
      {before}
      <DataText>{data}</DataText>
      {after}
    </>
  );
}
