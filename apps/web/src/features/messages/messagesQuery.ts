/** The wall value of the messages query (spec §2): contacts without an open chat. */
export const MESSAGES_WALL = 'wall';
