// @generated from the route table (shared/backoffice/src/handlers/commands.rs, OPERATIONS)
// and the OCPP 1.6 types (shared/ocpp): do not edit. `BACKOFFICE_UPDATE_OPENAPI=1
// cargo test -p backoffice --lib the_spas_operations` writes it again.

/** Each remote operation (by its route's last segment): its route, the OCPP 1.6 call it sends, the permission it needs. */
export const CHARGER_OPERATIONS = {
  remoteStart: { path: '/charger/remoteStart', action: 'RemoteStartTransaction', permission: 'write:system' },
  remoteStop: { path: '/charger/remoteStop', action: 'RemoteStopTransaction', permission: 'write:system' },
  unlock: { path: '/charger/unlock', action: 'UnlockConnector', permission: 'write:system' },
  availability: { path: '/charger/availability', action: 'ChangeAvailability', permission: 'write:system' },
  trigger: { path: '/charger/trigger', action: 'TriggerMessage', permission: 'write:system' },
  reset: { path: '/charger/reset', action: 'Reset', permission: 'configure:charger' },
  getConfiguration: { path: '/charger/getConfiguration', action: 'GetConfiguration', permission: 'configure:charger' },
  changeConfiguration: { path: '/charger/changeConfiguration', action: 'ChangeConfiguration', permission: 'configure:charger' },
  rotateAuthorizationKey: { path: '/charger/rotateAuthorizationKey', action: 'ChangeConfiguration', permission: 'configure:charger' },
  clearCache: { path: '/charger/clearCache', action: 'ClearCache', permission: 'configure:charger' },
  dataTransfer: { path: '/charger/dataTransfer', action: 'DataTransfer', permission: 'configure:charger' },
  reserveNow: { path: '/charger/reserveNow', action: 'ReserveNow', permission: 'write:system' },
  cancelReservation: { path: '/charger/cancelReservation', action: 'CancelReservation', permission: 'write:system' },
  updateFirmware: { path: '/charger/updateFirmware', action: 'UpdateFirmware', permission: 'configure:charger' },
  getDiagnostics: { path: '/charger/getDiagnostics', action: 'GetDiagnostics', permission: 'configure:charger' },
  sendLocalList: { path: '/charger/sendLocalList', action: 'SendLocalList', permission: 'configure:charger' },
  getLocalListVersion: { path: '/charger/getLocalListVersion', action: 'GetLocalListVersion', permission: 'configure:charger' },
  setChargingProfile: { path: '/charger/setChargingProfile', action: 'SetChargingProfile', permission: 'configure:charger' },
  clearChargingProfile: { path: '/charger/clearChargingProfile', action: 'ClearChargingProfile', permission: 'configure:charger' },
  getCompositeSchedule: { path: '/charger/getCompositeSchedule', action: 'GetCompositeSchedule', permission: 'configure:charger' },
  installCertificate: { path: '/charger/installCertificate', action: 'InstallCertificate', permission: 'configure:charger' },
  getInstalledCertificateIds: { path: '/charger/getInstalledCertificateIds', action: 'GetInstalledCertificateIds', permission: 'configure:charger' },
  deleteCertificate: { path: '/charger/deleteCertificate', action: 'DeleteCertificate', permission: 'configure:charger' },
  extendedTrigger: { path: '/charger/extendedTrigger', action: 'ExtendedTriggerMessage', permission: 'configure:charger' },
  getLog: { path: '/charger/getLog', action: 'GetLog', permission: 'configure:charger' },
  signedUpdateFirmware: { path: '/charger/signedUpdateFirmware', action: 'SignedUpdateFirmware', permission: 'configure:charger' },
  certificateSigned: { path: '/charger/certificateSigned', action: 'CertificateSigned', permission: 'configure:charger' },
} as const;

/** The values of the OCPP 1.6 enumerations the operations' forms choose from, in the schema's order. */
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
} as const;
