import { isEmail, isName, isNum, isPhone } from '@/utils/validate';

/** Values of the comprehensive form demo (a charging-station application). */
export interface StationForm {
  name: string;
  phone: string;
  email: string;
  region: string[];
  date: string;
  time: string;
  types: string[];
  ownership: string;
  price: string;
  agree: boolean;
  description: string;
}

export const emptyStationForm = (): StationForm => ({
  name: '',
  phone: '',
  email: '',
  region: [],
  date: '',
  time: '',
  types: [],
  ownership: '',
  price: '',
  agree: false,
  description: '',
});

/** Error message keys (dm.form.rules.*) per field; empty when valid. Uses the helper validators of utils/validate. */
export function validateStationForm(v: StationForm): Partial<Record<keyof StationForm, string>> {
  const e: Partial<Record<keyof StationForm, string>> = {};
  if (!v.name.trim()) e.name = 'required';
  else if (!isName(v.name.trim())) e.name = 'name';
  else if (v.name.trim().length > 20) e.name = 'tooLong';
  if (!v.phone.trim()) e.phone = 'required';
  else if (!isPhone(v.phone.trim())) e.phone = 'phone';
  if (v.email.trim() && !isEmail(v.email.trim())) e.email = 'email';
  if (v.region.length < 3) e.region = 'region';
  if (!v.date) e.date = 'required';
  if (!v.types.length) e.types = 'chooseOne';
  if (!v.ownership) e.ownership = 'required';
  if (!v.price.trim()) e.price = 'required';
  else if (!isNum(v.price.trim())) e.price = 'price';
  if (!v.agree) e.agree = 'agree';
  if (v.description.length > 200) e.description = 'tooLong';
  return e;
}

/** Step form: transfer details. */
export interface TransferForm {
  payAccount: string;
  receiverAccount: string;
  receiverName: string;
  amount: string;
}

export function validateTransfer(v: TransferForm): Partial<Record<keyof TransferForm, string>> {
  const e: Partial<Record<keyof TransferForm, string>> = {};
  if (!v.payAccount) e.payAccount = 'required';
  if (!v.receiverAccount.trim()) e.receiverAccount = 'required';
  else if (!isEmail(v.receiverAccount.trim()) && !isPhone(v.receiverAccount.trim())) e.receiverAccount = 'account';
  if (!v.receiverName.trim()) e.receiverName = 'required';
  if (!v.amount.trim()) e.amount = 'required';
  else if (!isNum(v.amount.trim()) || Number(v.amount) <= 0) e.amount = 'price';
  return e;
}
