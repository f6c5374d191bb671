/**
 * Long texts of each service page. Names, prices and the emergency flag are company facts and live in
 * company.ts; this module only adds the explanations.
 */
import type { Climate } from './cities.ts';

export interface Problem {
  title: string;
  text: string;
}

export interface Faq {
  q: string;
  a: string;
}

export interface ServiceText {
  /** Opening paragraph of the service page. */
  intro: string;
  problems: Problem[];
  /** What happens in this trade's visit, beyond the common steps. */
  visit: string;
  faq: Faq[];
  /** Short phrases for city pages: "una fuga bajo el fregadero". */
  jobs: [string, string, string];
  /** Why this trade matters in each kind of climate; `{city}` is replaced by the city name. */
  climate: Record<Climate, string>;
}

export const serviceTexts: Record<string, ServiceText> = {
  fontaneria: {
    intro:
      'Una gota constante bajo el fregadero, una cisterna que no deja de cargar o una mancha que crece en el techo del vecino de abajo: la mayoría de las averías de fontanería empiezan pequeñas y se encarecen con cada día que pasan. Nuestros fontaneros localizan el origen, cortan el agua si hace falta y reparan con piezas estándar que llevan en la furgoneta.',
    problems: [
      {
        title: 'Fugas en tuberías y llaves de paso',
        text: 'Uniones que gotean, tuberías de cobre picadas o de plomo en edificios antiguos, llaves de paso que ya no cierran.',
      },
      {
        title: 'Grifos y monomandos',
        text: 'Cartuchos desgastados, grifos que gotean o pierden presión, cambio completo de grifería de cocina o baño.',
      },
      {
        title: 'Cisternas e inodoros',
        text: 'Mecanismos de descarga que no cierran, flotadores rotos, inodoros que pierden agua por la base.',
      },
      {
        title: 'Termos y calentadores eléctricos',
        text: 'Termos que no calientan, que gotean por la válvula de seguridad o que hay que sustituir por antigüedad.',
      },
      {
        title: 'Fugas ocultas',
        text: 'Facturas de agua disparadas o manchas sin causa visible: detección con geófono y cámara térmica sin romper a ciegas.',
      },
    ],
    visit:
      'Al llegar, el fontanero comprueba el contador y las llaves de paso para saber si la fuga está antes o después de tu instalación. Si es una reparación sencilla (un grifo, una unión, un latiguillo) suele quedar resuelta en la misma visita. Si hay que romper alicatado o buscar una fuga oculta, te damos antes el presupuesto por escrito con el coste de abrir y reponer.',
    faq: [
      {
        q: '¿Qué hago mientras llega el fontanero?',
        a: 'Cierra la llave de paso general de la vivienda (suele estar en la cocina, en el baño o junto al contador) y, si el agua se acerca a enchufes o regletas, baja el interruptor general del cuadro eléctrico.',
      },
      {
        q: '¿Cubre el seguro de hogar la reparación?',
        a: 'Muchos seguros cubren los daños por agua pero no siempre la reparación de la tubería. Te damos factura y un informe con fotos para que lo presentes a tu aseguradora.',
      },
      {
        q: '¿Cambiáis tuberías de plomo?',
        a: 'Sí. En edificios anteriores a los años setenta es habitual encontrarlas; recomendamos sustituirlas por multicapa o cobre y te lo presupuestamos por tramos.',
      },
    ],
    jobs: [
      'una fuga bajo el fregadero',
      'una cisterna que no deja de cargar',
      'un termo que ya no calienta',
    ],
    climate: {
      atlantico:
        'En {city} la lluvia y la humedad ambiental aceleran la corrosión de las tuberías metálicas vistas y de las llaves de paso de patios y terrazas, que conviene revisar antes del invierno.',
      continental:
        'En {city} las heladas de invierno pueden reventar tuberías de terrazas, trasteros y segundas viviendas; aislar los tramos expuestos y dejar cerrada la llave de paso evita sustos.',
      mediterraneo:
        'El agua de {city} es dura y deja mucha cal: obstruye aireadores, estropea cartuchos de monomandos y acorta la vida de los termos eléctricos si no se purgan.',
      calor:
        'En {city} el calor del verano dilata las tuberías y reseca las juntas; además el agua es dura, así que los cartuchos de grifo y las válvulas de los termos se desgastan antes.',
      canario:
        'En {city} muchas viviendas tienen depósito o aljibe y grupo de presión; revisamos también bombas y presostatos cuando el problema es de caudal y no de fuga.',
    },
  },
  electricidad: {
    intro:
      'Un diferencial que salta cada vez que enciendes el horno, un enchufe que se calienta o media casa sin luz un domingo por la noche: son averías que no conviene dejar para otro día. Nuestros electricistas trabajan según el Reglamento Electrotécnico de Baja Tensión y pueden emitir el certificado de instalación cuando hace falta.',
    problems: [
      {
        title: 'Saltan los plomos o el diferencial',
        text: 'Buscamos qué circuito o aparato deriva a tierra y lo reparamos, en lugar de limitarnos a volver a subir la palanca.',
      },
      {
        title: 'Cortes de luz parciales',
        text: 'Una habitación o una línea sin corriente por un empalme suelto, un magnetotérmico defectuoso o un cable quemado.',
      },
      {
        title: 'Enchufes, interruptores y puntos de luz',
        text: 'Mecanismos rotos o que se calientan, nuevos enchufes, instalación de lámparas y focos empotrados.',
      },
      {
        title: 'Cuadro eléctrico antiguo',
        text: 'Cuadros sin diferencial o con fusibles de porcelana: los renovamos con protecciones por circuito.',
      },
      {
        title: 'Certificados y aumentos de potencia',
        text: 'Boletín para dar de alta el suministro o subir la potencia contratada, y adecuación de la instalación.',
      },
    ],
    visit:
      'El electricista empieza por el cuadro: mide el aislamiento de cada circuito para localizar la avería sin abrir paredes a ciegas. Cuando la causa es un electrodoméstico, te lo dice y deja el resto de la casa funcionando. Si la instalación no cumple la normativa o es peligrosa, lo anota en el parte y te presupuesta la adecuación por separado.',
    faq: [
      {
        q: '¿Es normal que el diferencial salte con la lluvia?',
        a: 'No. Suele indicar humedad en una caja de empalmes, un enchufe exterior o una luminaria de terraza. Hay que localizarla: un diferencial que salta está protegiendo a alguien.',
      },
      {
        q: '¿Podéis subir la potencia contratada?',
        a: 'La potencia la cambia tu comercializadora, pero a menudo pide un certificado de instalación. Lo emitimos tras revisar que cables y protecciones admiten la nueva potencia.',
      },
      {
        q: '¿Instaláis puntos de carga para coche eléctrico?',
        a: 'Sí, en garajes de vivienda unifamiliar y en plazas de garaje comunitario, con su línea y protecciones propias.',
      },
    ],
    jobs: [
      'un diferencial que salta sin parar',
      'un enchufe quemado',
      'un cuadro eléctrico sin protecciones',
    ],
    climate: {
      atlantico:
        'La humedad de {city} es la causa más frecuente de derivaciones: cajas de empalme en fachadas, luces de terraza y enchufes de garaje que hacen saltar el diferencial los días de lluvia.',
      continental:
        'En {city} los picos de consumo llegan en invierno, con radiadores eléctricos y calefactores que sobrecargan instalaciones antiguas y hacen saltar el limitador.',
      mediterraneo:
        'En {city} el aire acondicionado y la humedad salina de la costa castigan enchufes y mecanismos exteriores; revisamos protecciones cuando se añade un split o una placa de inducción.',
      calor:
        'En los veranos de {city} los aires acondicionados funcionan muchas horas seguidas y calientan empalmes y enchufes mal dimensionados; es la temporada con más avisos de cortes parciales.',
      canario:
        'En {city} la brisa marina oxida bornes y mecanismos de terrazas y azoteas; también revisamos instalaciones de termos y bombas de agua, muy comunes en las viviendas.',
    },
  },
  cerrajeria: {
    intro:
      'Te has dejado las llaves dentro, la llave se ha partido en la cerradura o has vuelto a casa y la puerta está forzada. Nuestros cerrajeros abren sin romper en la gran mayoría de los casos y pueden cambiar el bombín en la misma visita para que esa noche duermas tranquilo.',
    problems: [
      {
        title: 'Puerta cerrada de golpe',
        text: 'Apertura con técnicas no destructivas cuando la puerta solo está cerrada con el resbalón.',
      },
      {
        title: 'Llaves perdidas o robadas',
        text: 'Cambio del bombín o de la cerradura completa para que las copias antiguas dejen de servir.',
      },
      {
        title: 'Llave rota o atascada',
        text: 'Extracción de la llave partida y revisión del bombín, que muchas veces está desgastado.',
      },
      {
        title: 'Intento de robo',
        text: 'Reparación de la cerradura y el marco tras un forzamiento y cierre provisional si hace falta.',
      },
      {
        title: 'Más seguridad',
        text: 'Bombines antibumping y antiextracción, escudos protectores y cerraduras de varios puntos.',
      },
    ],
    visit:
      'Antes de abrir, el cerrajero te pide que acredites que vives en la vivienda (DNI con la dirección, contrato de alquiler o un vecino que te conozca): es una obligación con la que protegemos a todos. El precio de la apertura se dice por teléfono antes de salir y no cambia al llegar. Si la cerradura queda dañada o has perdido las llaves, te ofrecemos cambiar el bombín allí mismo con material de gama media o alta.',
    faq: [
      {
        q: '¿Abrís la puerta sin romperla?',
        a: 'En puertas cerradas solo con el resbalón, casi siempre. Si la puerta está cerrada con llave y tiene un bombín de seguridad, puede ser necesario sustituirlo; te lo explicamos antes de tocar nada.',
      },
      {
        q: '¿Cuánto tarda en llegar el cerrajero?',
        a: 'Depende de la ciudad y la hora; en cada página de ciudad indicamos el tiempo habitual. Te damos una estimación al llamar.',
      },
      {
        q: '¿Me dais factura para el seguro?',
        a: 'Sí, siempre. Muchas pólizas de hogar cubren la apertura de puertas y el cambio de cerradura tras un robo.',
      },
    ],
    jobs: [
      'una puerta cerrada con las llaves dentro',
      'un bombín que hay que cambiar tras perder las llaves',
      'una cerradura forzada',
    ],
    climate: {
      atlantico:
        'En {city} la humedad y el salitre endurecen los bombines de portales y trasteros; una gota de lubricante seco al año evita muchas llaves partidas.',
      continental:
        'En {city} el frío contrae las puertas metálicas de garajes y trasteros y hace que los cerrojos cuesten más de girar en invierno; lo ajustamos sin cambiar la cerradura.',
      mediterraneo:
        'En {city} muchas viviendas de costa pasan meses cerradas: al volver es habitual encontrar bombines agarrotados por el salitre, que conviene revisar.',
      calor:
        'En {city} el sol directo dilata puertas y marcos metálicos en verano, y los resbalones que rozan acaban dejando la puerta cerrada de golpe sin querer.',
      canario:
        'En {city} la brisa salina corroe cerraduras de azoteas, portones y trasteros; trabajamos con bombines y herrajes resistentes a la corrosión.',
    },
  },
  carpinteria: {
    intro:
      'Puertas que rozan o no cierran, bisagras vencidas, una tarima que se ha levantado por una fuga o un armario que quieres aprovechar mejor. Nuestros carpinteros hacen los ajustes y reparaciones que alargan la vida de la madera de tu casa, y también montan puertas y armarios nuevos.',
    problems: [
      {
        title: 'Puertas que rozan o no cierran',
        text: 'Cepillado, ajuste de bisagras y de cerraderos, cambio de manillas y pomos.',
      },
      {
        title: 'Tarima y parqué dañados',
        text: 'Lamas levantadas por humedad, tablillas sueltas, rayas profundas y reposición de rodapiés.',
      },
      {
        title: 'Armarios y muebles',
        text: 'Puertas de armario descolgadas, correderas que se salen, baldas e interiores a medida.',
      },
      {
        title: 'Ventanas de madera',
        text: 'Hojas hinchadas que no cierran, junquillos sueltos y barnizado exterior.',
      },
      {
        title: 'Puertas nuevas',
        text: 'Sustitución de puertas de paso y de entrada manteniendo o cambiando el marco.',
      },
    ],
    visit:
      'En la primera visita el carpintero mide, comprueba si el problema es de la madera o de la estructura (un marco descuadrado, un suelo que ha cedido) y te dice si se puede ajustar en el momento. Los trabajos a medida, como una puerta o un armario, se presupuestan con plano y plazo de fabricación antes de empezar.',
    faq: [
      {
        q: '¿Se puede arreglar una tarima mojada?',
        a: 'Si la humedad ha sido breve, a veces basta con secar y lijar. Si las lamas están hinchadas hay que cambiarlas; primero hay que reparar la fuga que la mojó.',
      },
      {
        q: '¿Trabajáis con puertas lacadas?',
        a: 'Sí, ajustamos y reparamos puertas lacadas y chapadas, y podemos repasar el lacado en golpes pequeños.',
      },
      {
        q: '¿Cuánto tarda una puerta a medida?',
        a: 'Entre dos y cuatro semanas según el modelo; el presupuesto indica el plazo.',
      },
    ],
    jobs: [
      'una puerta que roza con el suelo',
      'una tarima levantada',
      'un armario con las puertas descolgadas',
    ],
    climate: {
      atlantico:
        'En {city} la humedad hincha la madera: es la ciudad donde más puertas y ventanas de madera ajustamos en otoño e invierno.',
      continental:
        'En {city} la diferencia entre la calefacción del invierno y el verano seco hace que la tarima se contraiga y se abran juntas; recomendamos no ajustar puertas en pleno pico de estación.',
      mediterraneo:
        'En {city} la humedad del verano junto al mar hace trabajar la madera; usamos barnices y selladores pensados para ambientes salinos en ventanas y puertas exteriores.',
      calor:
        'En {city} el sol intenso reseca y agrieta la madera exterior; un lijado y barnizado cada pocos años evita cambiar ventanas y puertas de patio.',
      canario:
        'En {city} la madera de exterior sufre con el sol y el salitre; en interiores el clima suave hace que los ajustes aguanten muchos años.',
    },
  },
  pintura: {
    intro:
      'Pintar un piso es el cambio más barato que más se nota, y también el que más se estropea si se hace deprisa. Nuestros pintores protegen suelos y muebles, reparan grietas y desconchones antes de pintar y trabajan con pinturas plásticas lavables de buena cubrición.',
    problems: [
      {
        title: 'Pintar un piso o una habitación',
        text: 'Paredes y techos en pintura plástica, con protección de suelos, rodapiés y enchufes.',
      },
      {
        title: 'Alisado de gotelé',
        text: 'Tendido de pasta, lijado y pintura para dejar las paredes lisas y actuales.',
      },
      {
        title: 'Manchas de humedad y de humo',
        text: 'Sellado con pintura antimanchas para que la mancha no reaparezca a través de la pintura nueva.',
      },
      {
        title: 'Grietas y desconchones',
        text: 'Reparación con malla y masilla antes de pintar, para que no vuelvan a abrirse.',
      },
      {
        title: 'Moho en techos de baño y cocina',
        text: 'Limpieza con fungicida y pintura antimoho; si hay una filtración, la señalamos antes.',
      },
    ],
    visit:
      'El pintor visita el piso, mide superficies, mira el estado de las paredes y te pregunta por colores y acabados. Con eso te damos un presupuesto cerrado por estancia con los días de trabajo. El día de la obra se protege todo, se reparan las paredes, se aplican dos manos y se entrega la casa limpia.',
    faq: [
      {
        q: '¿Hay que vaciar el piso para pintar?',
        a: 'No. Agrupamos los muebles en el centro de cada habitación y los cubrimos. Sí conviene retirar cuadros, objetos frágiles y lo que haya en las estanterías.',
      },
      {
        q: '¿Cuánto se tarda en pintar un piso?',
        a: 'Un piso de 80 m² sin gotelé suele llevar de tres a cuatro días; con alisado de gotelé, una semana aproximadamente.',
      },
      {
        q: '¿Quién pone la pintura?',
        a: 'La ponemos nosotros y figura en el presupuesto con marca y referencia. Si prefieres una marca concreta, la usamos.',
      },
    ],
    jobs: [
      'pintar un piso antes de alquilarlo',
      'alisar el gotelé del salón',
      'tapar una mancha de humedad en el techo',
    ],
    climate: {
      atlantico:
        'En {city} recomendamos pinturas transpirables y antimoho en baños, cocinas y paredes de fachada norte, donde la condensación es habitual buena parte del año.',
      continental:
        'En {city} los cambios de temperatura marcan las grietas de techos y esquinas; las reparamos con malla antes de pintar para que no reaparezcan en el primer invierno.',
      mediterraneo:
        'En {city} la humedad del verano puede alargar el secado; programamos los trabajos para dar cada mano con el tiempo de secado que indica el fabricante.',
      calor:
        'En verano en {city} pintamos a primera hora: con más de 35 °C la pintura seca demasiado deprisa y quedan marcas de rodillo.',
      canario:
        'En {city} las fachadas interiores de patios y azoteas reciben mucho sol y salitre; usamos pinturas con filtro UV que conservan el color.',
    },
  },
  albanileria: {
    intro:
      'Azulejos que se despegan, una roza para pasar una tubería nueva, un tabique que quieres abrir o cerrar o el cambio de la bañera por un plato de ducha. Nuestros albañiles se ocupan de las pequeñas obras de la casa, con escombro retirado y limpieza al terminar.',
    problems: [
      {
        title: 'Azulejos sueltos o rotos',
        text: 'Reposición de piezas, incluso buscando modelos parecidos cuando el original ya no se fabrica.',
      },
      {
        title: 'Rozas y remates',
        text: 'Abrir y cerrar paredes para fontaneros y electricistas, con el enlucido listo para pintar.',
      },
      {
        title: 'Cambio de bañera por ducha',
        text: 'Retirada de la bañera, plato a ras de suelo, mampara y alicatado de la zona.',
      },
      {
        title: 'Tabiques',
        text: 'Levantar, abrir o cerrar tabiques de ladrillo para redistribuir estancias.',
      },
      {
        title: 'Grietas y fisuras',
        text: 'Valoración de si la grieta es superficial o estructural, y reparación cuando es de acabado.',
      },
    ],
    visit:
      'El albañil valora la obra, comprueba qué hay detrás (tuberías, cables, si el tabique es de carga) y te da un presupuesto con materiales, días de trabajo y retirada de escombros. Si la obra necesita comunicación o licencia municipal, te lo indicamos y te ayudamos con la documentación técnica.',
    faq: [
      {
        q: '¿Necesito permiso para cambiar la bañera por una ducha?',
        a: 'En la mayoría de los municipios es una obra menor que requiere una comunicación previa o declaración responsable en el ayuntamiento. Te indicamos cuál es en tu caso.',
      },
      {
        q: '¿Cuánto dura el cambio de bañera por plato de ducha?',
        a: 'Habitualmente dos o tres días, incluida la mampara. El baño puede usarse el tercer día.',
      },
      {
        q: '¿Retiráis los escombros?',
        a: 'Sí, la retirada de escombros y la limpieza final están incluidas en el presupuesto.',
      },
    ],
    jobs: [
      'reponer azulejos del baño',
      'cambiar la bañera por un plato de ducha',
      'cerrar una roza tras una reparación',
    ],
    climate: {
      atlantico:
        'En {city} muchas reparaciones de albañilería van unidas a humedades: antes de alicatar o enlucir comprobamos que la pared está seca para que el trabajo dure.',
      continental:
        'En {city} las heladas agrietan enfoscados de patios y terrazas; los reparamos con morteros aptos para ciclos de hielo y deshielo.',
      mediterraneo:
        'En {city} el salitre degrada los morteros de balcones y terrazas cercanos al mar; reparamos frentes de forjado y remates con morteros de reparación.',
      calor:
        'En {city} programamos en verano los trabajos de exterior a primera hora y curamos los morteros con agua para que no se agrieten por el calor.',
      canario:
        'En {city} son frecuentes las azoteas transitables y los muros de bloque; reparamos fisuras y remates con materiales adecuados al sol y la brisa marina.',
    },
  },
  climatizacion: {
    intro:
      'Un aire acondicionado que enfría poco, gotea dentro de casa o hace ruido suele necesitar una limpieza o una pequeña reparación, no un equipo nuevo. Nuestros técnicos, con certificado de manipulación de gases fluorados, revisan, recargan e instalan equipos split y conductos de todas las marcas.',
    problems: [
      {
        title: 'El aire no enfría',
        text: 'Filtros sucios, falta de gas por una fuga, un sensor o un condensador averiado.',
      },
      {
        title: 'Gotea agua en la pared',
        text: 'Desagüe de condensados obstruido o bandeja rota en la unidad interior.',
      },
      {
        title: 'Ruidos y malos olores',
        text: 'Ventiladores desequilibrados, suciedad acumulada y moho en la batería.',
      },
      {
        title: 'Códigos de error',
        text: 'Diagnóstico de placas, sondas y compresores en equipos inverter.',
      },
      {
        title: 'Instalación de equipos nuevos',
        text: 'Split, multisplit y conductos, con vacío de la instalación y puesta en marcha.',
      },
    ],
    visit:
      'El técnico mide temperaturas y presiones, revisa filtros y desagüe y comprueba si hay fuga antes de recargar gas: recargar sin reparar la fuga solo aplaza el problema. Para instalaciones nuevas visitamos primero la vivienda para decidir la potencia y dónde van las unidades, y te damos el presupuesto con la máquina incluida o solo con la mano de obra si ya la tienes.',
    faq: [
      {
        q: '¿Cada cuánto hay que limpiar el aire acondicionado?',
        a: 'Los filtros, cada mes de uso intenso; una limpieza a fondo con revisión, una vez al año, antes del verano.',
      },
      {
        q: '¿Es normal tener que recargar gas cada año?',
        a: 'No. Un circuito frigorífico es cerrado: si pierde gas hay una fuga que debe localizarse y repararse.',
      },
      {
        q: '¿Instaláis el aparato si lo compro yo?',
        a: 'Sí. Presupuestamos solo la mano de obra y los materiales de instalación (tubería, soportes, desagüe).',
      },
    ],
    jobs: [
      'un split que no enfría',
      'un aire acondicionado que gotea',
      'instalar un equipo nuevo antes del verano',
    ],
    climate: {
      atlantico:
        'En {city} el aire acondicionado se usa más como bomba de calor y deshumidificador que para enfriar; revisamos el modo calefacción antes del otoño.',
      continental:
        'En {city} los veranos superan con facilidad los 35 °C y los inviernos son fríos: la bomba de calor trabaja todo el año y agradece una revisión en primavera y otra en otoño.',
      mediterraneo:
        'En {city} la humedad del verano hace que los equipos trabajen más horas; limpiar la batería y el desagüe evita goteos y olores a mitad de temporada.',
      calor:
        'En {city} el verano pasa de 40 °C: un aire acondicionado parado es casi una urgencia, y en las olas de calor damos prioridad a hogares con personas mayores o bebés.',
      canario:
        'En {city} el clima suave hace que muchos equipos pasen meses sin uso; la brisa salina corroe las unidades exteriores, que conviene revisar y proteger.',
    },
  },
  calefaccion: {
    intro:
      'La caldera deja de dar agua caliente justo el día más frío, los radiadores calientan por abajo y no por arriba o se acerca la revisión obligatoria. Nuestros técnicos de calefacción trabajan con calderas de gas natural y propano de las marcas más comunes, radiadores, termostatos y suelo radiante.',
    problems: [
      {
        title: 'Caldera sin agua caliente',
        text: 'Falta de presión, válvula de tres vías, sensor de llama o placa electrónica.',
      },
      {
        title: 'La caldera se bloquea',
        text: 'Códigos de error, encendidos fallidos y problemas de evacuación de humos.',
      },
      {
        title: 'Radiadores fríos',
        text: 'Aire en el circuito, llaves cerradas o radiadores que necesitan equilibrado.',
      },
      {
        title: 'Revisión obligatoria',
        text: 'Revisión periódica de la caldera de gas según el RITE, con su certificado.',
      },
      {
        title: 'Termostatos y control',
        text: 'Termostatos programables e inteligentes, válvulas termostáticas en radiadores.',
      },
    ],
    visit:
      'El técnico lee el código de error de la caldera, comprueba la presión del circuito, la entrada de gas y la salida de humos, y te dice si la reparación es inmediata o hace falta pedir la pieza. Si la caldera tiene más de quince años y la avería es cara, te presentamos también el presupuesto de sustitución para que compares.',
    faq: [
      {
        q: '¿Qué presión debe marcar la caldera?',
        a: 'Con la calefacción fría, entre 1 y 1,5 bar en la mayoría de calderas murales. Si baja con frecuencia, hay una pérdida de agua en el circuito que conviene revisar.',
      },
      {
        q: '¿Cada cuánto hay que revisar la caldera de gas?',
        a: 'El RITE fija revisiones periódicas de mantenimiento; para una caldera individual de gas, lo habitual es cada dos años, y anualmente si se quiere prevenir averías.',
      },
      {
        q: '¿Reparáis calderas de gasóleo?',
        a: 'Sí, en las ciudades donde aún son habituales, aunque la mayoría de nuestros avisos son de calderas murales de gas.',
      },
    ],
    jobs: [
      'una caldera que no da agua caliente',
      'radiadores que no calientan',
      'la revisión periódica de la caldera',
    ],
    climate: {
      atlantico:
        'En {city} la calefacción se enciende muchos meses al año; revisar la caldera en septiembre evita quedarse sin agua caliente con las primeras lluvias frías.',
      continental:
        'En {city} los inviernos son fríos y con heladas: es donde más avisos urgentes de calderas atendemos entre noviembre y febrero.',
      mediterraneo:
        'En {city} la calefacción se usa pocos meses, y las calderas que pasan el verano paradas suelen fallar en el primer encendido; una revisión en octubre lo evita.',
      calor:
        'En {city} la caldera trabaja sobre todo para el agua caliente; la cal del agua dura obstruye el intercambiador y es la causa más común de agua tibia.',
      canario:
        'En {city} casi no hay calefacción: la mayoría de los avisos son de calentadores de gas butano y termos para el agua caliente sanitaria.',
    },
  },
  desatascos: {
    intro:
      'El agua no baja en el fregadero, el inodoro rebosa o huele a desagüe en todo el piso. Nuestros técnicos de desatascos trabajan con muelle, máquina de presión y cámara de inspección para desatascar sin romper y para saber por qué se atascó.',
    problems: [
      {
        title: 'Fregadero atascado',
        text: 'Grasa y restos de comida en el sifón o en el tramo hasta la bajante.',
      },
      {
        title: 'Inodoro atascado',
        text: 'Toallitas, objetos caídos o una pendiente insuficiente en el desagüe.',
      },
      {
        title: 'Ducha y lavabo lentos',
        text: 'Pelo y jabón acumulados en sifones y botes sifónicos.',
      },
      {
        title: 'Bajantes y arquetas',
        text: 'Atascos que afectan a varios vecinos, colectores de garaje y arquetas de vivienda unifamiliar.',
      },
      {
        title: 'Malos olores',
        text: 'Sifones secos, ventilación insuficiente de la bajante o una rotura en el desagüe.',
      },
    ],
    visit:
      'El técnico localiza primero dónde está el tapón: si solo falla un aparato, el problema está en su sifón o ramal; si fallan varios, en la bajante o el colector. Desatasca con la herramienta adecuada, comprueba que el agua baja con caudal y, si el atasco se repite, propone una inspección con cámara para ver el estado de la tubería.',
    faq: [
      {
        q: '¿Puedo usar productos químicos desatascadores?',
        a: 'Mejor no: rara vez deshacen un tapón de grasa y pueden dañar tuberías antiguas y a quien luego trabaje en ellas. Prueba con un desatascador de ventosa y, si no funciona, llámanos.',
      },
      {
        q: '¿Quién paga un atasco en la bajante comunitaria?',
        a: 'Si el atasco está en la bajante o el colector común, normalmente corresponde a la comunidad. La factura puede ir a nombre de la comunidad de propietarios.',
      },
      {
        q: '¿Tiráis las toallitas por el inodoro?',
        a: 'Nunca: aunque pongan biodegradables, las toallitas son la primera causa de atascos en inodoros y colectores.',
      },
    ],
    jobs: ['un fregadero que no traga', 'un inodoro atascado', 'malos olores en el baño'],
    climate: {
      atlantico:
        'En {city} las lluvias intensas llenan arquetas y colectores de patios y garajes; un atasco en la red de pluviales se nota enseguida en los bajos.',
      continental:
        'En {city} las grasas de cocina se solidifican antes en las tuberías frías del invierno y forman tapones en los tramos horizontales.',
      mediterraneo:
        'En {city} las tormentas de final de verano arrastran arena y hojas a sumideros de terrazas y patios; conviene limpiarlos antes del otoño.',
      calor:
        'En {city} los sifones que no se usan se secan en verano y dejan pasar el olor de la bajante; basta con echar agua, pero si persiste revisamos la ventilación.',
      canario:
        'En {city} muchas viviendas tienen fosa o arqueta propia y la cal del agua estrecha los desagües; la limpieza periódica evita atascos.',
    },
  },
  persianas: {
    intro:
      'La cinta se ha roto, la persiana se ha quedado torcida a media altura o ya no sube aunque tires. Casi todas las averías de persianas se arreglan en una visita corta: nuestros técnicos llevan cintas, recogedores, lamas y motores de las medidas habituales.',
    problems: [
      {
        title: 'Cinta rota o deshilachada',
        text: 'Cambio de cinta y, si hace falta, del recogedor o del muelle.',
      },
      {
        title: 'Persiana atascada o torcida',
        text: 'Lamas que se salen de la guía, eje roto o tope que ha cedido.',
      },
      { title: 'Lamas rotas', text: 'Reposición de lamas de PVC o aluminio del mismo perfil.' },
      {
        title: 'Motores que no funcionan',
        text: 'Reparación o cambio de motor, finales de carrera y mandos.',
      },
      {
        title: 'Motorización',
        text: 'Convertir persianas manuales en eléctricas, con pulsador o mando a distancia.',
      },
    ],
    visit:
      'El técnico abre el cajón de la persiana, revisa el eje, la cinta o el motor y las guías, y repara en el momento cuando la pieza es estándar. En persianas muy grandes o de aluminio inyectado puede hacer falta una segunda visita con la lama o el motor a medida.',
    faq: [
      {
        q: '¿Qué hago si la persiana se ha quedado a medio bajar?',
        a: 'No fuerces la cinta ni empujes las lamas: puedes partir el eje. Si se ha soltado, sujeta la cinta para que no se enrolle y llámanos.',
      },
      {
        q: '¿Se puede motorizar cualquier persiana?',
        a: 'Casi todas las de cajón interior o exterior, cambiando el eje por un motor tubular. Hace falta un punto de corriente cercano.',
      },
      {
        q: '¿Cambiáis la cinta en el día?',
        a: 'Sí, el cambio de cinta es el trabajo más habitual y suele llevar menos de media hora.',
      },
    ],
    jobs: [
      'una persiana con la cinta rota',
      'una persiana atascada a media altura',
      'motorizar las persianas del salón',
    ],
    climate: {
      atlantico:
        'En {city} el viento y la lluvia castigan las persianas de fachada; las guías se llenan de suciedad y las lamas de PVC se deforman menos que las de aluminio fino.',
      continental:
        'En {city} las persianas se bajan a diario para aislar del frío y del calor, y las cintas se desgastan antes; cambiarlas a tiempo evita que la persiana caiga de golpe.',
      mediterraneo:
        'En {city} las persianas pasan el verano bajadas contra el sol y el salitre; las lamas de aluminio térmico aguantan mejor que las de PVC en fachadas orientadas al sur.',
      calor:
        'En {city} las persianas son la primera defensa contra el calor: el sol del verano agrieta las lamas de PVC, que cambiamos por otras de aluminio con espuma aislante.',
      canario:
        'En {city} la brisa marina oxida ejes y guías; revisamos y lubricamos los mecanismos para que no se agarroten.',
    },
  },
  cristaleria: {
    intro:
      'Un golpe de viento, un balonazo o un intento de robo y la ventana queda con el cristal roto. Nuestros cristaleros hacen primero un cierre provisional seguro y después miden e instalan el cristal definitivo: sencillo, laminar de seguridad o doble acristalamiento con cámara.',
    problems: [
      {
        title: 'Cristal roto en ventana o puerta',
        text: 'Retirada segura de los restos, cierre provisional y sustitución a medida.',
      },
      {
        title: 'Doble acristalamiento',
        text: 'Cambio de cristal sencillo por uno con cámara para aislar del ruido y del frío.',
      },
      {
        title: 'Cristal empañado por dentro',
        text: 'Cámaras que han perdido el sellado y acumulan condensación entre los vidrios.',
      },
      {
        title: 'Mamparas de ducha',
        text: 'Instalación, ajuste de puertas y cambio de perfiles y juntas.',
      },
      {
        title: 'Espejos y vidrio a medida',
        text: 'Espejos de baño, tableros de vidrio y cristales de puertas interiores.',
      },
    ],
    visit:
      'Si el cristal está roto, el técnico retira los fragmentos sueltos, deja la ventana cerrada con un panel provisional y toma las medidas exactas. El cristal definitivo se corta a medida y se instala en una segunda visita, normalmente en dos a cinco días laborables según el tipo de vidrio.',
    faq: [
      {
        q: '¿Qué hago con un cristal roto hasta que lleguéis?',
        a: 'No intentes retirar los trozos que siguen en el marco: pueden caer. Aleja a niños y mascotas, barre con cuidado y, si puedes, cubre el hueco con cartón y cinta.',
      },
      {
        q: '¿El seguro cubre la rotura de cristales?',
        a: 'La mayoría de pólizas de hogar incluyen rotura de cristales. Te damos factura y fotos para el parte.',
      },
      {
        q: '¿Qué cristal aísla mejor del ruido?',
        a: 'Un doble acristalamiento con un vidrio laminar acústico y cámara de 12 a 16 mm. Te recomendamos la composición según la calle.',
      },
    ],
    jobs: [
      'una ventana con el cristal roto',
      'cambiar a doble acristalamiento',
      'instalar una mampara de ducha',
    ],
    climate: {
      atlantico:
        'En {city} el doble acristalamiento es casi imprescindible: reduce la condensación en los cristales y el moho en los marcos durante el invierno húmedo.',
      continental:
        'En {city} el doble acristalamiento con vidrio bajo emisivo reduce de forma notable la factura de calefacción en invierno y el calor que entra en verano.',
      mediterraneo:
        'En {city} recomendamos vidrios con control solar en ventanas al sur y al oeste, y laminares en balcones y terrazas.',
      calor:
        'En {city} un vidrio de control solar en las ventanas al oeste baja varios grados la temperatura de la habitación en las tardes de verano.',
      canario:
        'En {city} los vientos alisios y las calimas castigan los cristales de terrazas y azoteas; usamos vidrio laminar en cerramientos expuestos.',
    },
  },
  antenas: {
    intro:
      'Los canales se ven pixelados, aparece «sin señal» en varios canales o has movido la tele a otra habitación y no llega la antena. Nuestros antenistas orientan, amplifican y reparan antenas individuales y colectivas, e instalan nuevas tomas de televisión.',
    problems: [
      {
        title: 'Sin señal o imagen pixelada',
        text: 'Antena desorientada por el viento, conectores oxidados o amplificador averiado.',
      },
      {
        title: 'Faltan canales',
        text: 'Cambios de frecuencias de la TDT que exigen resintonizar o ajustar la cabecera.',
      },
      {
        title: 'Nuevas tomas de televisión',
        text: 'Llevar la señal a un dormitorio o a la terraza con cable y toma nuevos.',
      },
      {
        title: 'Antenas colectivas',
        text: 'Revisión y ajuste de la instalación comunitaria para toda la comunidad de vecinos.',
      },
      { title: 'Parabólicas', text: 'Orientación de antenas parabólicas y cambio de LNB.' },
    ],
    visit:
      'El antenista mide la señal con un medidor de campo en la toma que falla y en la cabecera de la antena, y así sabe si el problema está en el tejado, en el cable o en la toma. Si el fallo está en la antena colectiva, te lo indica para que lo comuniques al administrador de la comunidad, y podemos hacer el trabajo para la comunidad.',
    faq: [
      {
        q: '¿Por qué se pierde la señal cuando hace viento?',
        a: 'Porque la antena o el mástil se mueven. Suele bastar con fijar y reorientar la antena y cambiar los conectores dañados.',
      },
      {
        q: '¿Tengo que resintonizar la tele?',
        a: 'Cuando cambian las frecuencias de la TDT sí. Si aun así faltan canales, el problema suele estar en la antena o el amplificador.',
      },
      {
        q: '¿Quién paga la reparación de la antena del edificio?',
        a: 'La antena colectiva es un elemento común, así que normalmente la paga la comunidad de propietarios.',
      },
    ],
    jobs: ['una tele sin señal', 'una toma de televisión nueva', 'ajustar la antena colectiva'],
    climate: {
      atlantico:
        'En {city} los temporales de viento desorientan antenas y las lluvias oxidan conectores: es la causa de la mayoría de las pérdidas de señal que atendemos.',
      continental:
        'En {city} el cierzo, las heladas y la nieve en los tejados aflojan mástiles y vientos de antena; una revisión antes del invierno evita quedarse sin tele.',
      mediterraneo:
        'En {city} el salitre corroe conectores y amplificadores de tejado; usamos conectores estancos y cajas protegidas.',
      calor:
        'En {city} el sol reseca cables y cajas de plástico en las azoteas, que acaban dejando entrar agua en las tormentas de final de verano.',
      canario:
        'En {city} la orografía obliga a orientar con precisión al repetidor correcto, y la brisa salina exige conectores y mástiles resistentes a la corrosión.',
    },
  },
  pladur: {
    intro:
      'El pladur (placa de yeso laminado) permite dividir una habitación, bajar un techo para empotrar luces o aislar una pared fría en pocos días y sin obra húmeda. También reparamos golpes, agujeros y grietas en paredes y techos de placa.',
    problems: [
      {
        title: 'Tabiques nuevos',
        text: 'Dividir un salón o crear un vestidor con tabique de placa y aislamiento acústico.',
      },
      {
        title: 'Falsos techos',
        text: 'Techos con focos empotrados, cajeados para conductos de aire y foseados de luz.',
      },
      {
        title: 'Trasdosados',
        text: 'Forrar una pared fría o húmeda con aislamiento para ganar confort.',
      },
      {
        title: 'Golpes y agujeros',
        text: 'Reparación con parche de placa, cinta y pasta, lista para pintar.',
      },
      {
        title: 'Grietas en juntas',
        text: 'Juntas que se abren por una mala ejecución o por movimientos del edificio.',
      },
    ],
    visit:
      'El instalador mide, comprueba por dónde van instalaciones y qué uso tendrá la pared (si hay que colgar muebles o una televisión, se refuerza). El presupuesto detalla perfilería, tipo de placa (estándar, hidrófuga para baños, ignífuga) y aislamiento.',
    faq: [
      {
        q: '¿Se puede colgar una tele en una pared de pladur?',
        a: 'Sí, con tacos específicos para placa o, mejor, con un refuerzo de madera o chapa previsto al montar la pared.',
      },
      {
        q: '¿El pladur aísla del ruido?',
        a: 'Un tabique con doble placa y lana mineral en el interior aísla más que un tabique de ladrillo hueco sencillo.',
      },
      {
        q: '¿Se puede poner pladur en un baño?',
        a: 'Sí, con placa hidrófuga (de color verde) y el tratamiento adecuado de juntas antes de alicatar.',
      },
    ],
    jobs: [
      'un tabique para dividir el salón',
      'un falso techo con focos',
      'reparar un agujero en la pared',
    ],
    climate: {
      atlantico:
        'En {city} el trasdosado con aislamiento es la reforma que más mejora las paredes frías y con condensación de las fachadas norte.',
      continental:
        'En {city} un trasdosado con lana mineral en las paredes que dan al exterior se nota en la factura de calefacción del primer invierno.',
      mediterraneo:
        'En {city} usamos placa hidrófuga en cocinas, baños y paredes cercanas a terrazas, donde la humedad del verano es alta.',
      calor:
        'En {city} el aislamiento en techos bajo cubierta y en paredes al oeste reduce el calor acumulado en las habitaciones durante el verano.',
      canario:
        'En {city} el pladur se usa mucho para redistribuir apartamentos; en zonas cercanas al mar elegimos perfilería galvanizada de calidad.',
    },
  },
  impermeabilizacion: {
    intro:
      'Una mancha oscura que vuelve a salir después de pintar, pintura que se abomba junto al rodapié u olor a cerrado en un dormitorio. Antes de tratar una humedad hay que saber de dónde viene: filtración, capilaridad, condensación o una fuga. Nuestros técnicos lo diagnostican con medidor y te proponen la solución que corresponde.',
    problems: [
      {
        title: 'Humedades por filtración',
        text: 'Agua que entra por fachadas, terrazas, cubiertas o juntas de ventanas.',
      },
      {
        title: 'Humedad por capilaridad',
        text: 'Agua que sube desde el suelo en bajos y casas antiguas, con manchas y salitre en la parte baja.',
      },
      {
        title: 'Condensación y moho',
        text: 'Vapor que se condensa en paredes frías de dormitorios y baños mal ventilados.',
      },
      {
        title: 'Terrazas y azoteas',
        text: 'Impermeabilización con lámina o membrana líquida bajo el pavimento o vista.',
      },
      {
        title: 'Sótanos y garajes',
        text: 'Muros enterrados con filtraciones y tratamiento por el interior.',
      },
    ],
    visit:
      'El técnico mide la humedad de la pared a distintas alturas, revisa la fachada, la terraza o la cubierta que hay encima y te entrega un diagnóstico con la causa probable. Solo entonces presupuestamos la solución; pintar encima de una humedad sin resolverla es tirar el dinero.',
    faq: [
      {
        q: '¿Cómo sé si la humedad es de condensación?',
        a: 'La condensación aparece en invierno, en esquinas y detrás de muebles, y mejora al ventilar. La capilaridad sale en la parte baja de la pared todo el año; la filtración empeora cuando llueve.',
      },
      {
        q: '¿La humedad de la terraza del vecino la paga él?',
        a: 'Si la filtración viene de una terraza privativa, normalmente responde su propietario; si es de la cubierta o fachada, la comunidad. El diagnóstico sirve para reclamar.',
      },
      {
        q: '¿Cuánto dura una impermeabilización de terraza?',
        a: 'Una membrana bien ejecutada dura entre diez y quince años; damos garantía por escrito.',
      },
    ],
    jobs: [
      'una humedad en la pared del dormitorio',
      'impermeabilizar la terraza',
      'moho por condensación en el baño',
    ],
    climate: {
      atlantico:
        'En {city} la lluvia frecuente y la humedad ambiental hacen que las filtraciones por fachada y la condensación en dormitorios sean el problema de la casa más consultado.',
      continental:
        'En {city} las heladas abren fisuras en terrazas y cubiertas por las que luego entra el agua; revisarlas tras el invierno evita filtraciones en primavera.',
      mediterraneo:
        'En {city} las lluvias torrenciales de otoño ponen a prueba terrazas y cubiertas planas en pocas horas; impermeabilizar en verano es la mejor prevención.',
      calor:
        'En {city} el sol intenso degrada en pocos años las láminas de las terrazas; las membranas con protección UV duran bastante más.',
      canario:
        'En {city} las azoteas planas son la norma y el sol las castiga todo el año; la filtración por azotea es el aviso de humedad más frecuente.',
    },
  },
  'reparacion-electrodomesticos': {
    intro:
      'La lavadora no centrifuga, el frigorífico no enfría o el horno ya no calienta. Antes de comprar uno nuevo vale la pena un diagnóstico: muchas averías son una bomba, unas escobillas o una resistencia. Nuestros técnicos reparan en tu casa lavadoras, lavavajillas, secadoras, frigoríficos, hornos y vitrocerámicas de las marcas habituales.',
    problems: [
      {
        title: 'Lavadora que no centrifuga o no desagua',
        text: 'Filtro obstruido, bomba de desagüe, escobillas del motor o sensor de desequilibrio.',
      },
      {
        title: 'Frigorífico que no enfría',
        text: 'Ventilador, termostato, sonda o fuga de gas en el circuito.',
      },
      {
        title: 'Lavavajillas que no lava bien',
        text: 'Brazos obstruidos, bomba de lavado o resistencia averiada.',
      },
      {
        title: 'Horno o vitrocerámica que no calienta',
        text: 'Resistencias, termostatos, selectores y placas de control.',
      },
      {
        title: 'Secadora que no seca',
        text: 'Filtros y condensador sucios, correa rota o sonda de humedad.',
      },
    ],
    visit:
      'El técnico hace el diagnóstico en tu casa y te dice el coste de la reparación antes de empezar; si decides reparar, el diagnóstico se descuenta. Llevamos las piezas más comunes y, si la pieza hay que pedirla, volvemos en cuanto llega. Si la reparación no compensa por la edad del aparato, te lo decimos con claridad.',
    faq: [
      {
        q: '¿Reparáis electrodomésticos en garantía del fabricante?',
        a: 'No: durante la garantía del fabricante debe repararlo su servicio técnico oficial, sin coste para ti. Fuera de garantía reparamos todas las marcas habituales.',
      },
      {
        q: '¿Qué garantía tiene la reparación?',
        a: 'La reparación tiene la garantía de Reparo Hogar sobre la mano de obra y las piezas cambiadas, indicada en la factura.',
      },
      {
        q: '¿Merece la pena reparar una lavadora de diez años?',
        a: 'Depende de la avería: cambiar una bomba o unas escobillas suele compensar; cambiar el motor o el tambor, casi nunca. Te damos el precio y tú decides.',
      },
    ],
    jobs: [
      'una lavadora que no centrifuga',
      'un frigorífico que no enfría',
      'un horno que no calienta',
    ],
    climate: {
      atlantico:
        'En {city} las secadoras trabajan casi todo el año; la limpieza del condensador y de los filtros es la reparación preventiva que más hacemos.',
      continental:
        'En {city} el agua dura deja cal en resistencias de lavadoras y lavavajillas; usar descalcificador o sal regeneradora alarga su vida.',
      mediterraneo:
        'En {city} el agua es muy dura: la cal es la causa principal de resistencias quemadas en lavadoras y lavavajillas.',
      calor:
        'En los veranos de {city} frigoríficos y congeladores trabajan al límite; limpiar la rejilla trasera y dejar espacio de ventilación evita muchas averías.',
      canario:
        'En {city} la humedad salina afecta a las placas electrónicas de los aparatos cercanos a ventanas y terrazas; revisamos también conexiones y tomas de corriente.',
    },
  },
};

export function findServiceText(slug: string): ServiceText {
  const text = serviceTexts[slug];
  if (!text) throw new Error(`No texts for service "${slug}" in src/data/services.ts`);
  return text;
}
