// @generated from the route table (shared/backoffice/src/handlers/commands.rs, OPERATIONS)
// and the OCPP 1.6 types (shared/ocpp): do not edit. `BACKOFFICE_UPDATE_OPENAPI=1
// cargo test -p backoffice --lib the_spas_operations` writes it again.

/** Each remote operation (by its route's last segment): its route, the call it sends to an OCPP 1.6 charger (`action`) and to a 2.0.1 one (`v201`; null: not to that version), the permission it needs. */
export const CHARGER_OPERATIONS = {
  remoteStart: { path: '/charger/remoteStart', action: 'RemoteStartTransaction', v201: 'RequestStartTransaction', permission: 'write:system' },
  remoteStop: { path: '/charger/remoteStop', action: 'RemoteStopTransaction', v201: 'RequestStopTransaction', permission: 'write:system' },
  unlock: { path: '/charger/unlock', action: 'UnlockConnector', v201: 'UnlockConnector', permission: 'write:system' },
  availability: { path: '/charger/availability', action: 'ChangeAvailability', v201: 'ChangeAvailability', permission: 'write:system' },
  trigger: { path: '/charger/trigger', action: 'TriggerMessage', v201: 'TriggerMessage', permission: 'write:system' },
  reset: { path: '/charger/reset', action: 'Reset', v201: 'Reset', permission: 'configure:charger' },
  getConfiguration: { path: '/charger/getConfiguration', action: 'GetConfiguration', v201: null, permission: 'configure:charger' },
  changeConfiguration: { path: '/charger/changeConfiguration', action: 'ChangeConfiguration', v201: null, permission: 'configure:charger' },
  rotateAuthorizationKey: { path: '/charger/rotateAuthorizationKey', action: 'ChangeConfiguration', v201: 'SetVariables', permission: 'configure:charger' },
  clearCache: { path: '/charger/clearCache', action: 'ClearCache', v201: 'ClearCache', permission: 'configure:charger' },
  dataTransfer: { path: '/charger/dataTransfer', action: 'DataTransfer', v201: 'DataTransfer', permission: 'configure:charger' },
  reserveNow: { path: '/charger/reserveNow', action: 'ReserveNow', v201: 'ReserveNow', permission: 'write:system' },
  cancelReservation: { path: '/charger/cancelReservation', action: 'CancelReservation', v201: 'CancelReservation', permission: 'write:system' },
  updateFirmware: { path: '/charger/updateFirmware', action: 'UpdateFirmware', v201: 'UpdateFirmware', permission: 'configure:charger' },
  getDiagnostics: { path: '/charger/getDiagnostics', action: 'GetDiagnostics', v201: null, permission: 'configure:charger' },
  sendLocalList: { path: '/charger/sendLocalList', action: 'SendLocalList', v201: 'SendLocalList', permission: 'configure:charger' },
  getLocalListVersion: { path: '/charger/getLocalListVersion', action: 'GetLocalListVersion', v201: 'GetLocalListVersion', permission: 'configure:charger' },
  setChargingProfile: { path: '/charger/setChargingProfile', action: 'SetChargingProfile', v201: 'SetChargingProfile', permission: 'configure:charger' },
  clearChargingProfile: { path: '/charger/clearChargingProfile', action: 'ClearChargingProfile', v201: 'ClearChargingProfile', permission: 'configure:charger' },
  getCompositeSchedule: { path: '/charger/getCompositeSchedule', action: 'GetCompositeSchedule', v201: 'GetCompositeSchedule', permission: 'configure:charger' },
  installCertificate: { path: '/charger/installCertificate', action: 'InstallCertificate', v201: 'InstallCertificate', permission: 'configure:charger' },
  getInstalledCertificateIds: { path: '/charger/getInstalledCertificateIds', action: 'GetInstalledCertificateIds', v201: 'GetInstalledCertificateIds', permission: 'configure:charger' },
  deleteCertificate: { path: '/charger/deleteCertificate', action: 'DeleteCertificate', v201: 'DeleteCertificate', permission: 'configure:charger' },
  extendedTrigger: { path: '/charger/extendedTrigger', action: 'ExtendedTriggerMessage', v201: 'TriggerMessage', permission: 'configure:charger' },
  getLog: { path: '/charger/getLog', action: 'GetLog', v201: 'GetLog', permission: 'configure:charger' },
  signedUpdateFirmware: { path: '/charger/signedUpdateFirmware', action: 'SignedUpdateFirmware', v201: 'UpdateFirmware', permission: 'configure:charger' },
  certificateSigned: { path: '/charger/certificateSigned', action: 'CertificateSigned', v201: 'CertificateSigned', permission: 'configure:charger' },
  getVariables: { path: '/charger/getVariables', action: null, v201: 'GetVariables', permission: 'configure:charger' },
  setVariables: { path: '/charger/setVariables', action: null, v201: 'SetVariables', permission: 'configure:charger' },
  getBaseReport: { path: '/charger/getBaseReport', action: null, v201: 'GetBaseReport', permission: 'configure:charger' },
  setDisplayMessage: { path: '/charger/setDisplayMessage', action: null, v201: 'SetDisplayMessage', permission: 'write:system' },
  clearDisplayMessage: { path: '/charger/clearDisplayMessage', action: null, v201: 'ClearDisplayMessage', permission: 'write:system' },
  getDisplayMessages: { path: '/charger/getDisplayMessages', action: null, v201: 'GetDisplayMessages', permission: 'write:system' },
} as const;

/** The values of the OCPP 1.6 enumerations the operations' forms choose from, in the schema's order; `…V201`: what a form offers a 2.0.1 station instead. */
export const OCPP_VALUES = {
  AvailabilityType: ['Inoperative', 'Operative'],
  CertificateUseEnum: ['CentralSystemRootCertificate', 'ManufacturerRootCertificate'],
  ChargingProfileKindType: ['Absolute', 'Recurring', 'Relative'],
  ChargingProfilePurposeType: ['ChargePointMaxProfile', 'TxDefaultProfile', 'TxProfile'],
  ChargingRateUnitType: ['A', 'W'],
  LogEnum: ['DiagnosticsLog', 'SecurityLog'],
  MessageTrigger: ['BootNotification', 'DiagnosticsStatusNotification', 'FirmwareStatusNotification', 'Heartbeat', 'MeterValues', 'StatusNotification'],
  MessageTriggerEnum: ['BootNotification', 'LogStatusNotification', 'FirmwareStatusNotification', 'Heartbeat', 'MeterValues', 'SignChargePointCertificate', 'StatusNotification'],
  RecurrencyKindType: ['Daily', 'Weekly'],
  ResetType: ['Hard', 'Soft'],
  UpdateType: ['Differential', 'Full'],
  CertificateUseEnumV201: ['CentralSystemRootCertificate', 'ManufacturerRootCertificate', 'V2GRootCertificate', 'MORootCertificate'],
} as const;
