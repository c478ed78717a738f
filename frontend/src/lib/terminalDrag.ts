/** paneDragType carries a pane id from the rail (or a slot's head) to a slot. */
export const paneDragType = 'application/x-osfoundry-pane';
