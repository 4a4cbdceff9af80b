/**
 * The stations feature's public face (stations, piles, connectors, the
 * charger link and charging cards): what other features may use of it.
 * Its pages are reached through the page registry.
 */
export { commandDone, sendCommand, useCommand } from './api/chargers';
export { actionName } from './components/commandWords';
export { RegionPicker } from './components/RegionPicker';
export { StationPicker } from './components/StationPicker';
export { COMMAND_COLOUR } from './model/operations';
