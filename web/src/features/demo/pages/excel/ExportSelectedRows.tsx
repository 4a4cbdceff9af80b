import { ExcelDemo } from '../../components/ExcelDemo';

/** Excel export demo (selected); exceljs is imported only when exporting. */
export default function ExcelPage() {
  return <ExcelDemo mode="selected" />;
}
