import { ExcelDemo } from '../../components/ExcelDemo';

/** Excel export demo (merged); exceljs is imported only when exporting. */
export default function ExcelPage() {
  return <ExcelDemo mode="merged" />;
}
