import DOMPurify from 'dompurify';

/** HTML from an editor made safe to render (scripts, event handlers, javascript: URLs removed). */
export const sanitizeHtml = (html: string): string => DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
