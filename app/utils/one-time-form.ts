/** The hidden field of a creating form that shows a secret once: its one-time token (one-time-form.server.ts). */
export const ONE_TIME_FIELD = 'once'
